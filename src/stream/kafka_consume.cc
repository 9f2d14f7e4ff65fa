#include "stream/kafka_consume.h"

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "util/json_writer.h"

namespace kedb::stream {
namespace {

using Clock = std::chrono::steady_clock;

// Counts the results the brokers did not take.
class DeliveryCounter : public RdKafka::DeliveryReportCb {
 public:
  void dr_cb(RdKafka::Message& message) override {
    if (message.err() != RdKafka::ERR_NO_ERROR) {
      ++failed;
      last_error = message.errstr();
    }
  }
  uint64_t failed = 0;
  std::string last_error;
};

// Offsets whose results the brokers have, not yet committed: the next
// offset to read per partition.
using Offsets = std::map<std::pair<std::string, int32_t>, int64_t>;

// Commits `pending` for the partitions in `owned` (all of them when null);
// what is committed leaves `pending`. A refused commit (the group is
// rebalancing) keeps them for the next try.
RdKafka::ErrorCode CommitPending(RdKafka::KafkaConsumer* consumer, Offsets* pending,
                                 const std::vector<RdKafka::TopicPartition*>* owned) {
  std::vector<RdKafka::TopicPartition*> commit;
  for (const auto& [where, offset] : *pending) {
    const bool mine = !owned || std::any_of(owned->begin(), owned->end(), [&](const RdKafka::TopicPartition* p) {
      return p->topic() == where.first && p->partition() == where.second;
    });
    if (mine) commit.push_back(RdKafka::TopicPartition::create(where.first, where.second, offset));
  }
  if (commit.empty()) return RdKafka::ERR_NO_ERROR;
  const RdKafka::ErrorCode err = consumer->commitSync(commit);
  if (err == RdKafka::ERR_NO_ERROR) {
    for (const RdKafka::TopicPartition* p : commit) pending->erase({p->topic(), p->partition()});
  }
  RdKafka::TopicPartition::destroy(commit);
  return err;
}

// Commits what is pending for the partitions being taken away before it
// lets them go, so that their next owner starts after the messages this
// process has answered (fewer results twice); then follows the group's
// new assignment.
class Rebalancer : public RdKafka::RebalanceCb {
 public:
  explicit Rebalancer(Offsets* pending) : pending_(pending) {}
  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override {
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      consumer->assign(partitions);
      return;
    }
    CommitPending(consumer, pending_, &partitions);
    // Whatever could not be committed is no longer this process's to commit.
    for (const RdKafka::TopicPartition* p : partitions) pending_->erase({p->topic(), p->partition()});
    consumer->unassign();
  }

 private:
  Offsets* pending_;
};

Status Set(RdKafka::Conf* conf, const std::string& name, const std::string& value) {
  std::string error;
  if (conf->set(name, value, error) != RdKafka::Conf::CONF_OK) {
    return Status::InvalidArgument(fmt::format("kafka setting {}={}: {}", name, value, error));
  }
  return Status::Ok();
}

// The settings both clients share, then the caller's.
Result<std::unique_ptr<RdKafka::Conf>> BaseConf(const ConsumeOptions& o) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  if (Status st = Set(conf.get(), "bootstrap.servers", o.brokers); !st.ok()) return st;
  if (Status st = Set(conf.get(), "client.id", "kedb-consume"); !st.ok()) return st;
  for (const auto& [name, value] : o.settings) {
    if (Status st = Set(conf.get(), name, value); !st.ok()) return st;
  }
  return conf;
}

Result<std::unique_ptr<RdKafka::KafkaConsumer>> MakeConsumer(const ConsumeOptions& o, Rebalancer* rebalancer) {
  auto conf = BaseConf(o);
  if (!conf.ok()) return conf.status();
  std::string error;
  if ((*conf)->set("rebalance_cb", rebalancer, error) != RdKafka::Conf::CONF_OK) return Status::Internal(error);
  // Offsets are committed by hand, after the results are acknowledged.
  for (const auto& [name, value] : std::initializer_list<std::pair<const char*, const char*>>{
           {"enable.auto.commit", "false"}, {"auto.offset.reset", "earliest"}}) {
    if (Status st = Set(conf->get(), name, value); !st.ok()) return st;
  }
  if (Status st = Set(conf->get(), "group.id", o.group); !st.ok()) return st;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf->get(), error));
  if (!consumer) return Status::InvalidArgument("kafka consumer: " + error);
  if (auto err = consumer->subscribe({o.input_topic}); err != RdKafka::ERR_NO_ERROR) {
    return Status::InvalidArgument(fmt::format("kafka: cannot subscribe to {}: {}", o.input_topic, RdKafka::err2str(err)));
  }
  return consumer;
}

Result<std::unique_ptr<RdKafka::Producer>> MakeProducer(const ConsumeOptions& o, DeliveryCounter* deliveries) {
  auto conf = BaseConf(o);
  if (!conf.ok()) return conf.status();
  std::string error;
  if ((*conf)->set("dr_cb", deliveries, error) != RdKafka::Conf::CONF_OK) return Status::Internal(error);
  // Every replica has the result before its input is committed.
  if (Status st = Set(conf->get(), "acks", "all"); !st.ok()) return st;
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf->get(), error));
  if (!producer) return Status::InvalidArgument("kafka producer: " + error);
  return producer;
}

// Up to `max` messages: waits up to `wait_ms` for the first, then up to
// kFillMs more for the rest. Taking only what had already arrived made
// batches of a few messages when the input is spread over many partitions,
// and each batch pays a flush and a commit (round trips to the brokers).
// Transient errors are reported on stderr and skipped.
constexpr int kFillMs = 20;

Result<std::vector<std::unique_ptr<RdKafka::Message>>> TakeBatch(RdKafka::KafkaConsumer& consumer, std::size_t max,
                                                                 int wait_ms) {
  std::vector<std::unique_ptr<RdKafka::Message>> batch;
  Clock::time_point fill_until{};
  while (batch.size() < max) {
    int timeout = wait_ms;
    if (!batch.empty()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(fill_until - Clock::now()).count();
      if (left <= 0) break;
      timeout = static_cast<int>(left);
    }
    std::unique_ptr<RdKafka::Message> m(consumer.consume(timeout));
    const RdKafka::ErrorCode err = m->err();
    if (err == RdKafka::ERR__TIMED_OUT) break;
    if (err == RdKafka::ERR_NO_ERROR) {
      if (batch.empty()) fill_until = Clock::now() + std::chrono::milliseconds(kFillMs);
      batch.push_back(std::move(m));
      continue;
    }
    if (err == RdKafka::ERR__FATAL) return Status::IoError("kafka: " + m->errstr());
    if (err != RdKafka::ERR__PARTITION_EOF) std::fprintf(stderr, "kedb consume: %s\n", m->errstr().c_str());
  }
  return batch;
}

// Produces one result; waits for room when the producer's queue is full.
Status Produce(RdKafka::Producer& producer, const std::string& topic, const std::string& key, const std::string& value) {
  for (;;) {
    const auto err = producer.produce(topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY,
                                      const_cast<char*>(value.data()), value.size(), key.data(), key.size(), 0, nullptr);
    if (err == RdKafka::ERR_NO_ERROR) return Status::Ok();
    if (err != RdKafka::ERR__QUEUE_FULL) {
      return Status::IoError(fmt::format("kafka: cannot produce to {}: {}", topic, RdKafka::err2str(err)));
    }
    producer.poll(100);
  }
}

// Adds the batch's next offsets to `pending`.
void AddOffsets(const std::vector<std::unique_ptr<RdKafka::Message>>& batch, Offsets* pending) {
  for (const auto& m : batch) {
    int64_t& next = (*pending)[{m->topic_name(), m->partition()}];
    next = std::max(next, m->offset() + 1);
  }
}

// Scans the batch, publishes its results, waits until the brokers have
// them all, then commits its offsets.
Status ProcessBatch(const Engine& engine, const ConsumeOptions& o, RdKafka::KafkaConsumer& consumer,
                    RdKafka::Producer& producer, const DeliveryCounter& deliveries,
                    const std::vector<std::unique_ptr<RdKafka::Message>>& batch, Offsets* pending,
                    ConsumeStats* stats) {
  const uint64_t failed_before = deliveries.failed;
  for (const auto& m : batch) {
    app::MatchQuery q = o.query;
    q.text.assign(static_cast<const char*>(m->payload()), m->len());
    q.want_text = false;
    const std::string key = m->key() ? *m->key() : std::string();
    app::Answer scan = app::ScanLog(engine, q);
    std::string_view json = scan.json;
    while (!json.empty() && json.back() == '\n') json.remove_suffix(1);
    const std::string result = ResultJson(key, m->topic_name(), m->partition(), m->offset(), m->len(),
                                          json.empty() ? std::string_view("null") : json);
    if (Status st = Produce(producer, o.output_topic, key, result); !st.ok()) return st;
    ++stats->messages;
    stats->bytes += m->len();
  }
  if (producer.flush(60000) != RdKafka::ERR_NO_ERROR) return Status::IoError("kafka: results not acknowledged in 60 s");
  if (deliveries.failed != failed_before) {
    return Status::IoError("kafka: the brokers refused a result (" + deliveries.last_error +
                               "); its input is left uncommitted");
  }
  AddOffsets(batch, pending);
  // A commit refused while the group rebalances is tried again after the
  // next batch, or when the partitions are taken away; if that fails too,
  // their next owner scans those messages again: a duplicate, never a loss.
  const RdKafka::ErrorCode err = CommitPending(&consumer, pending, nullptr);
  if (err == RdKafka::ERR_NO_ERROR) {
    ++stats->commits;
  } else {
    ++stats->commit_failures;
  }
  return Status::Ok();
}

}  // namespace

std::string ResultJson(std::string_view job, std::string_view topic, int32_t partition, int64_t offset,
                       std::size_t bytes, std::string_view scan_json) {
  util::JsonWriter w;
  w.BeginObject();
  w.Key("job").String(job);
  w.Key("input").BeginObject();
  w.Key("topic").String(topic).Key("partition").Int(partition).Key("offset").Int(offset);
  w.EndObject();
  w.Key("bytes").Int(static_cast<int64_t>(bytes));
  w.Key("scan").Raw(scan_json);
  w.EndObject();
  return w.Take();
}

Status Consume(const Engine& engine, const ConsumeOptions& o, const std::atomic<bool>& stop, ConsumeStats* stats) {
  DeliveryCounter deliveries;
  Offsets pending;
  Rebalancer rebalancer(&pending);
  auto consumer = MakeConsumer(o, &rebalancer);
  if (!consumer.ok()) return consumer.status();
  auto producer = MakeProducer(o, &deliveries);
  if (!producer.ok()) return producer.status();
  Status result = Status::Ok();
  Clock::time_point last_message = Clock::now();
  while (!stop.load()) {
    auto batch = TakeBatch(**consumer, o.batch, 200);
    if (!batch.ok()) {
      result = batch.status();
      break;
    }
    if (batch->empty()) {
      const auto idle = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - last_message).count();
      if (o.idle_exit_ms > 0 && idle >= o.idle_exit_ms) break;
      continue;
    }
    last_message = Clock::now();
    result = ProcessBatch(engine, o, **consumer, **producer, deliveries, *batch, &pending, stats);
    if (!result.ok()) break;
  }
  // Leaves the group at once (committing what is pending as the partitions
  // are revoked), so they move without waiting for the session to time out.
  (*consumer)->close();
  return result;
}

}  // namespace kedb::stream
