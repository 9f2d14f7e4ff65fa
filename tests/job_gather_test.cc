// Gathering a job's messages into one log, and the offsets that may be
// committed while jobs are open: never past a message whose job has no
// result yet.
#include <gtest/gtest.h>

#include "stream/job_gather.h"

namespace kedb::stream {
namespace {

using Clock = JobGatherer::Clock;
using Points = std::map<std::pair<std::string, int32_t>, int64_t>;

MessagePlace At(int64_t offset, int32_t partition = 0) { return {"logs", partition, offset}; }

TEST(JobGatherer, WithoutGatheringEachMessageIsALog) {
  JobGatherer jobs(0, 1 << 20);
  const auto t = Clock::now();
  jobs.Add(At(7), "job-1", "line one\n", false, t);
  jobs.Add(At(8), "job-1", "line two", false, t);
  const std::vector<ClosedJob> closed = jobs.TakeClosed(t, false);
  ASSERT_EQ(closed.size(), 2u);
  EXPECT_EQ(closed[0].text, "line one\n");
  EXPECT_EQ(closed[1].text, "line two");  // as sent
  EXPECT_EQ(closed[1].first.offset, 8);
  EXPECT_EQ(closed[1].ended, "message");
  EXPECT_EQ(jobs.CommitPoints(), (Points{{{"logs", 0}, 9}}));
}

// Two jobs' lines interleaved in one partition: the first ends with its
// marker, the second stays open, and the partition's offset stops at the
// second's first message until it ends too.
TEST(JobGatherer, InterleavedJobsAndTheCommitPoint) {
  JobGatherer jobs(1000, 1 << 20);
  const auto t = Clock::now();
  jobs.Add(At(10), "a", "Traceback (most recent call last):", false, t);
  jobs.Add(At(11), "b", "step 1 ok", false, t);
  jobs.Add(At(12), "a", "  File \"x.py\", line 3, in <module>\n", false, t);
  jobs.Add(At(13), "a", "RuntimeError: CUDA error: out of memory", true, t);
  jobs.Add(At(14), "b", "step 2 ok", false, t);
  std::vector<ClosedJob> closed = jobs.TakeClosed(t, true);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].key, "a");
  EXPECT_EQ(closed[0].text,
            "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n"
            "RuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(closed[0].first.offset, 10);
  EXPECT_EQ(closed[0].last_offset, 13);
  EXPECT_EQ(closed[0].messages, 3u);
  EXPECT_EQ(closed[0].ended, "end");
  EXPECT_EQ(jobs.CommitPoints(), (Points{{{"logs", 0}, 11}}));  // b is open from 11
  EXPECT_TRUE(jobs.CommitPoints().empty());                     // nothing moved since

  // b goes quiet on the clock only once the consumer has caught up.
  const auto later = t + std::chrono::milliseconds(1500);
  EXPECT_TRUE(jobs.TakeClosed(later, false).empty());
  closed = jobs.TakeClosed(later, true);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].text, "step 1 ok\nstep 2 ok\n");
  EXPECT_EQ(closed[0].ended, "quiet");
  EXPECT_EQ(jobs.CommitPoints(), (Points{{{"logs", 0}, 15}}));
}

// Behind on a backlog, the messages' own timestamps say when a job went
// quiet: newer messages of its partition, quiet_ms later, end it.
TEST(JobGatherer, MessageTimeEndsJobsOnABacklog) {
  JobGatherer jobs(1000, 1 << 20);
  const auto t = Clock::now();
  jobs.Add(At(0), "a", "a1", false, t, 5000);
  jobs.Add(At(1), "b", "b1", false, t, 5100);
  jobs.Add(At(2), "b", "b2", false, t, 5900);
  EXPECT_TRUE(jobs.TakeClosed(t, false).empty());
  jobs.Add(At(3), "b", "b3", false, t, 6000);  // a's last message was 1000 ms before
  std::vector<ClosedJob> closed = jobs.TakeClosed(t, false);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].key, "a");
  EXPECT_EQ(jobs.CommitPoints(), (Points{{{"logs", 0}, 1}}));
}

TEST(JobGatherer, EmptyMessageEndsAndLongJobsComeInParts) {
  JobGatherer jobs(1000, 16);
  const auto t = Clock::now();
  jobs.Add(At(0), "a", "0123456789", false, t);
  jobs.Add(At(1), "a", "0123456789", false, t);  // 22 bytes with newlines: a part
  jobs.Add(At(2), "a", "tail", false, t);
  jobs.Add(At(3), "a", "", false, t);  // the end
  jobs.Add(At(4), "a", "", false, t);  // a second marker: no job to end, no result
  std::vector<ClosedJob> closed = jobs.TakeClosed(t, false);
  ASSERT_EQ(closed.size(), 2u);
  EXPECT_EQ(closed[0].ended, "size");
  EXPECT_EQ(closed[0].messages, 2u);
  EXPECT_EQ(closed[1].ended, "end");
  EXPECT_EQ(closed[1].text, "tail\n");
  EXPECT_EQ(closed[1].first.offset, 2);
  EXPECT_EQ(jobs.CommitPoints(), (Points{{{"logs", 0}, 5}}));
}

// However many jobs run at once, their text together stays under the
// cap: past it, the largest open job is scanned as a part.
TEST(JobGatherer, OpenJobsTogetherStayUnderTheirCap) {
  JobGatherer jobs(1000, 1 << 20, 40);
  const auto t = Clock::now();
  jobs.Add(At(0), "a", std::string(15, 'a'), false, t);
  jobs.Add(At(1), "b", std::string(10, 'b'), false, t);
  EXPECT_EQ(jobs.open_bytes(), 27u);
  jobs.Add(At(2), "c", std::string(20, 'c'), false, t);  // 48 > 40: the largest, c, goes
  EXPECT_EQ(jobs.open_bytes(), 27u);
  std::vector<ClosedJob> closed = jobs.TakeClosed(t, false);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].key, "c");
  EXPECT_EQ(closed[0].ended, "size");
  jobs.Add(At(3), "a", "end", true, t);
  EXPECT_EQ(jobs.open_bytes(), 11u);
  jobs.Drop("logs", 0);
  EXPECT_EQ(jobs.open_bytes(), 0u);
}

// Keys are jobs within a partition; a partition taken away takes its open
// jobs with it, and the other partitions' points are untouched.
TEST(JobGatherer, DroppedPartitionForgetsItsJobs) {
  JobGatherer jobs(1000, 1 << 20);
  const auto t = Clock::now();
  jobs.Add(At(5, 0), "a", "p0", false, t);
  jobs.Add(At(9, 1), "a", "p1", false, t);
  jobs.Add(At(10, 1), "b", "done", true, t);
  EXPECT_EQ(jobs.open_jobs(), 2u);
  jobs.Drop("logs", 0);
  EXPECT_EQ(jobs.open_jobs(), 1u);
  const std::vector<ClosedJob> closed = jobs.TakeClosed(t, false);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].key, "b");
  EXPECT_EQ(jobs.CommitPoints(), (Points{{{"logs", 1}, 9}}));
}

}  // namespace
}  // namespace kedb::stream
