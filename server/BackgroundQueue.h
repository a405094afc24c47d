// BackgroundQueue: jobs that run an external tool for a document (the verify lens's ptxas -v,
// exact mode's nvcc), one at a time on a thread of their own, so that reading messages and
// analyses never wait on them. A job queued for a document replaces the one still queued for it
// (a newer version makes the older run pointless); the running one finishes (its tool has a
// timeout). Each Job has a `uri`.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>

namespace ptx::lsp {

template <class Job>
class BackgroundQueue {
 public:
  // Runs one job, on the queue's thread, with no lock of the queue held.
  using Run = std::function<void(Job& job)>;
  explicit BackgroundQueue(Run run) : run_(std::move(run)) {}
  ~BackgroundQueue() { stop(); }
  BackgroundQueue(const BackgroundQueue&) = delete;
  BackgroundQueue& operator=(const BackgroundQueue&) = delete;

  // Queues `job` (the thread starts with the first), replacing a queued job of the same document.
  void push(Job job) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      std::erase_if(queue_, [&](const Job& queued) { return queued.uri == job.uri; });
      queue_.push_back(std::move(job));
      if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    }
    wake_.notify_all();
  }
  // Drops a queued job of the document (closed).
  void cancel(std::string_view uri) {
    {
      std::lock_guard lock(mutex_);
      std::erase_if(queue_, [&](const Job& queued) { return queued.uri == uri; });
    }
    idle_.notify_all();
  }
  // Blocks until no job is queued or running.
  void waitIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && !running_; });
  }
  // Drops queued jobs and waits for a running one to end; later pushes are ignored.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      queue_.clear();
    }
    wake_.notify_all();
    idle_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      Job job = std::move(queue_.front());
      queue_.pop_front();
      running_ = true;
      lock.unlock();
      run_(job);
      lock.lock();
      running_ = false;
      idle_.notify_all();
    }
  }

  Run run_;
  std::mutex mutex_;  // Never held while a job runs.
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<Job> queue_;
  bool running_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ptx::lsp
