#include "stream/kafka_consume.h"

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

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
// Jobs being gathered on the partitions taken away are forgotten: their
// next owner reads them again from their first message. The partitions
// owned are kept, so that messages of a revoked partition already taken
// in the batch being read are left to the new owner too (gathered here,
// they would make a job of a few lines with no end).
class Rebalancer : public RdKafka::RebalanceCb {
 public:
  Rebalancer(Offsets* pending, JobGatherer* jobs) : pending_(pending), jobs_(jobs) {}
  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override {
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      for (const RdKafka::TopicPartition* p : partitions) owned_.insert({p->topic(), p->partition()});
      consumer->assign(partitions);
      return;
    }
    CommitPending(consumer, pending_, &partitions);
    // Whatever could not be committed is no longer this process's to commit.
    for (const RdKafka::TopicPartition* p : partitions) {
      pending_->erase({p->topic(), p->partition()});
      jobs_->Drop(p->topic(), p->partition());
      owned_.erase({p->topic(), p->partition()});
    }
    consumer->unassign();
  }
  bool Owns(const std::string& topic, int32_t partition) const { return owned_.count({topic, partition}) > 0; }

 private:
  Offsets* pending_;
  JobGatherer* jobs_;
  std::set<std::pair<std::string, int32_t>> owned_;
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

// Whether a message carries the end-of-job header.
bool EndsJob(RdKafka::Message& m) {
  static const std::string kEnd(kJobEndHeader);
  const RdKafka::Headers* headers = m.headers();
  return headers && headers->get_last(kEnd).err() == RdKafka::ERR_NO_ERROR;
}

// Scans the logs the gatherer has closed and publishes their results,
// waits until the brokers have them all, then commits the offsets that
// moved.
Status AnswerJobs(const Engine& engine, const ConsumeOptions& o, RdKafka::KafkaConsumer& consumer,
                  RdKafka::Producer& producer, const DeliveryCounter& deliveries, bool caught_up, JobGatherer* jobs,
                  Offsets* pending, ConsumeStats* stats) {
  const uint64_t failed_before = deliveries.failed;
  const std::vector<ClosedJob> closed = jobs->TakeClosed(Clock::now(), caught_up);
  for (const ClosedJob& log : closed) {
    app::MatchQuery q = o.query;
    q.text = log.text;
    q.want_text = false;
    app::Answer scan = app::ScanLog(engine, q);
    std::string_view json = scan.json;
    while (!json.empty() && json.back() == '\n') json.remove_suffix(1);
    const std::string result = ResultJson(log, json.empty() ? std::string_view("null") : json);
    if (Status st = Produce(producer, o.output_topic, log.key, result); !st.ok()) return st;
    ++stats->results;
  }
  if (!closed.empty()) {
    if (producer.flush(60000) != RdKafka::ERR_NO_ERROR) return Status::IoError("kafka: results not acknowledged in 60 s");
    if (deliveries.failed != failed_before) {
      return Status::IoError("kafka: the brokers refused a result (" + deliveries.last_error +
                             "); its input is left uncommitted");
    }
  }
  for (const auto& [partition, point] : jobs->CommitPoints()) {
    int64_t& next = (*pending)[partition];
    next = std::max(next, point);
  }
  if (pending->empty()) return Status::Ok();
  // A commit refused while the group rebalances is tried again next time,
  // or when the partitions are taken away; if that fails too, their next
  // owner scans those messages again: a duplicate, never a loss.
  if (CommitPending(&consumer, pending, nullptr) == RdKafka::ERR_NO_ERROR) {
    ++stats->commits;
  } else {
    ++stats->commit_failures;
  }
  return Status::Ok();
}

}  // namespace

std::string ResultJson(const ClosedJob& log, std::string_view scan_json) {
  util::JsonWriter w;
  w.BeginObject();
  w.Key("job").String(log.key);
  w.Key("input").BeginObject();
  w.Key("topic").String(log.first.topic).Key("partition").Int(log.first.partition).Key("offset").Int(log.first.offset);
  w.Key("last_offset").Int(log.last_offset).Key("messages").Int(static_cast<int64_t>(log.messages));
  w.EndObject();
  w.Key("bytes").Int(static_cast<int64_t>(log.text.size()));
  w.Key("ended").String(log.ended);
  w.Key("scan").Raw(scan_json);
  w.EndObject();
  return w.Take();
}

Status Consume(const Engine& engine, const ConsumeOptions& o, const std::atomic<bool>& stop, ConsumeStats* stats) {
  DeliveryCounter deliveries;
  Offsets pending;
  JobGatherer jobs(o.gather_quiet_ms, o.gather_max_bytes, o.gather_max_open_bytes);
  Rebalancer rebalancer(&pending, &jobs);
  auto consumer = MakeConsumer(o, &rebalancer);
  if (!consumer.ok()) return consumer.status();
  auto producer = MakeProducer(o, &deliveries);
  if (!producer.ok()) return producer.status();
  Status result = Status::Ok();
  Clock::time_point last_message = Clock::now();
  while (!stop.load()) {
    // While jobs are open, wake often enough to close the quiet ones.
    const int wait = jobs.open_jobs() > 0 ? std::clamp(o.gather_quiet_ms / 4, 10, 200) : 200;
    auto batch = TakeBatch(**consumer, o.batch, wait);
    if (!batch.ok()) {
      result = batch.status();
      break;
    }
    const auto now = Clock::now();
    for (const auto& m : *batch) {
      if (!rebalancer.Owns(m->topic_name(), m->partition())) continue;  // revoked while the batch was read
      const std::string_view payload(static_cast<const char*>(m->payload()), m->len());
      const RdKafka::MessageTimestamp stamp = m->timestamp();
      jobs.Add({m->topic_name(), m->partition(), m->offset()}, m->key() ? *m->key() : std::string(), payload,
               EndsJob(*m), now,
               stamp.type == RdKafka::MessageTimestamp::MSG_TIMESTAMP_NOT_AVAILABLE ? -1 : stamp.timestamp);
      ++stats->messages;
      stats->bytes += m->len();
    }
    if (!batch->empty()) last_message = now;
    const bool caught_up = batch->size() < o.batch;
    result = AnswerJobs(engine, o, **consumer, **producer, deliveries, caught_up, &jobs, &pending, stats);
    if (!result.ok()) break;
    if (batch->empty() && o.idle_exit_ms > 0 &&
        std::chrono::duration_cast<std::chrono::milliseconds>(now - last_message).count() >= o.idle_exit_ms) {
      break;
    }
  }
  // Leaves the group at once (committing what is pending as the partitions
  // are revoked), so they move without waiting for the session to time out.
  (*consumer)->close();
  return result;
}

}  // namespace kedb::stream
