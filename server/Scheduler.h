// Scheduler: owns the open documents and keeps their analyses fresh on worker threads.
//
// Edits are applied at once on the caller's thread (the text is the source of truth).
// Analysis starts on a worker, at once for an edit after a quiet moment and after a short
// debounce for edits in a burst: an incremental reparse, then — when
// the edit stayed inside one function body (of a CUDA document: inside the strings of one asm
// statement, CudaDocument.h) — a re-check of that function only, published at once; a full
// analysis (every body in the model) follows when the document has been quiet for a moment,
// on a worker of its own at a lower priority, and the next edit stops it. Results for
// versions that were superseded while they ran are dropped rather than published (they
// still serve as the base for the next incremental step).
//
// The listener is called on a worker thread, without the scheduler's lock held, after the
// analysis has been stored, so a reader that then asks for the latest analysis sees it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "CudaDocument.h"
#include "Document.h"

namespace ptx::lsp {

struct SchedulerOptions {
  // Bursts of edits coalesce: an edit that follows the previous one within this time waits
  // this long before analysis starts. An edit after a quiet period is analyzed at once
  // (a leading-edge debounce): a lone keystroke does not pay the wait.
  std::chrono::milliseconds debounce{10};
  // Quiet time after an incremental result before the full analysis starts.
  std::chrono::milliseconds fullDelay{150};
  // Threads analyzing documents' latest versions; full analyses have one more, of their own,
  // at a lower priority.
  unsigned workers = 2;
};

class Scheduler {
 public:
  using Listener = std::function<void(const std::string& uri, const std::shared_ptr<const Analysis>& analysis)>;

  Scheduler(SchedulerOptions options, Listener listener);
  ~Scheduler();  // Stops (see stop).

  // Lets running analyses finish (their listener calls included), then joins the workers;
  // no listener call happens after it returns. Idempotent.
  void stop();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  void setOptions(SchedulerOptions options);

  // `cuda`: the document is CUDA C++, checked for these passes (nullopt: PTX).
  void open(const std::string& uri, std::string text, std::int64_t version, LintOptions lint,
            std::optional<CudaSetup> cuda);
  // Applies `edit` to the open document under the lock; false when `uri` is not open.
  bool edit(const std::string& uri, const std::function<void(Document&)>& edit);
  bool close(const std::string& uri);
  // New lint options for a document (configuration changed): a full re-analysis follows.
  // Returns the settings serial that analyses under these options will carry (0: not open).
  std::uint64_t setLintOptions(const std::string& uri, LintOptions lint, std::optional<CudaSetup> cuda);
  std::vector<std::string> openDocuments() const;

  struct View {
    std::int64_t version = 0;              // The document's current version.
    std::shared_ptr<const Analysis> latest;  // The newest analysis (maybe incremental, maybe older).
    std::shared_ptr<const Analysis> full;    // The newest full analysis, unless a newer incremental one replaced it.
    bool open = false;
  };
  View view(const std::string& uri) const;
  // Reads the current text under the lock (tests, and requests that need only text).
  std::optional<std::string> text(const std::string& uri) const;

  // A request is waiting on this document: analyze now, and fully when `full`.
  void hurry(const std::string& uri, bool full);

  // Blocks until no document has work queued or running (tests and benchmarks).
  void waitIdle();

 private:
  struct Entry {
    std::unique_ptr<Document> document;
    LintOptions lint;
    std::optional<CudaSetup> cuda;  // Set for a CUDA document.
    std::shared_ptr<const Analysis> latest;
    std::shared_ptr<const Analysis> full;
    std::chrono::steady_clock::time_point due;      // When the next analysis may start.
    std::chrono::steady_clock::time_point lastEdit;  // When the last edit arrived.
    std::chrono::steady_clock::time_point fullDue;  // When the full analysis may start.
    bool wantFull = false;  // The latest analysis is incremental: a full one is owed.
    bool analyzing = false;
    bool analyzingFull = false;
    // Set to abandon the running full analysis: an edit, new options or closing the document
    // makes its result one that would be dropped (LintOptions::stop).
    std::shared_ptr<std::atomic<bool>> stopFull;
    bool needsRelint = false;  // Options changed: re-check everything even without edits.
    std::uint64_t generation = 0;  // Tells a reopened document from the one a worker saw.
    std::uint64_t settingsSerial = 0;  // Bumped by setLintOptions; see Analysis::settingsSerial.
  };
  enum class JobKind { Latest, Full };
  struct Job {
    std::string uri;
    JobKind kind;
  };

  // A worker takes jobs of one kind: the `workers` that analyze the latest version, and one
  // more, at a lower priority, for full analyses.
  void workerLoop(JobKind kind);
  std::optional<Job> nextJob(JobKind kind, std::chrono::steady_clock::time_point now,
                             std::chrono::steady_clock::time_point& wakeAt);
  // Whether a full analysis was stored or let go (what ptx::returnFreedMemory is worth running for).
  bool runLatest(const std::string& uri, std::unique_lock<std::mutex>& lock);
  // Whether it stored or let go of a full analysis (false when an edit stopped it).
  bool runFull(const std::string& uri, std::unique_lock<std::mutex>& lock);
  // Asks the entry's running full analysis, if any, to stop (its result would be dropped).
  static void abandonFull(Entry& entry);
  bool busy() const;
  // Clears a job's flag once its listener call is over (the entry may be gone by then).
  void finishJob(const std::string& uri, std::uint64_t generation, bool Entry::*flag);

  SchedulerOptions options_;
  Listener listener_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::map<std::string, Entry, std::less<>> entries_;
  bool stopping_ = false;
  std::uint64_t nextGeneration_ = 1;
  std::vector<std::thread> workers_;
};

}  // namespace ptx::lsp
