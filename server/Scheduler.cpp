// Scheduler: debounced, incremental analysis of open documents on a small worker pool.
#include "Scheduler.h"

#include <algorithm>
#include <exception>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "support/FreedMemory.h"

namespace ptx::lsp {

using Clock = std::chrono::steady_clock;

namespace {

// The full analysis runs in the background: a keystroke's re-check, which the user waits for,
// should get the cores first. Linux keeps a nice value per thread, inherited by the threads
// it starts (the analysis's helpers); raising one needs no privilege. Elsewhere, or if the
// call fails, the thread keeps the normal priority.
void lowerThisThreadsPriority() {
#ifdef __linux__
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

// A PTX document's analysis: incremental where the edits allow it (relintChangedFunction).
std::shared_ptr<Analysis> analyzePtxSnapshot(const Snapshot& snapshot, const std::shared_ptr<const Analysis>& base,
                                             const LintOptions& lint, bool relint) {
  LintResult result;
  if (snapshot.fresh || !base || !base->result.tree.isComplete()) {
    // What follows the parse may use the machine's threads: a document opened is the one its
    // user waits for. The tree is parsed whole: it is the base of the next incremental reparse.
    LintOptions opening = lint;
    opening.threads = 0;
    opening.parseInPieces = false;
    opening.returnFreedMemoryBetweenStages = true;
    result = lintText(*snapshot.text, opening);
  } else {
    SyntaxTree tree = snapshot.edits.empty()
                          ? base->result.tree
                          : reparseSyntax(base->result.tree, *snapshot.text, snapshot.edits, lint.parse);
    std::optional<LintResult> quick;
    if (snapshot.changed && !relint) {
      // Like an opened document, an edited one is what its user waits for.
      LintOptions recheck = lint;
      recheck.threads = 0;
      quick = relintChangedFunction(*snapshot.text, tree, base->result, *snapshot.changed, recheck);
    }
    result = quick ? std::move(*quick) : lintTree(*snapshot.text, std::move(tree), lint);
  }
  return std::make_shared<Analysis>(snapshot.text, snapshot.version, std::move(result), *snapshot.lines);
}

}  // namespace

Scheduler::Scheduler(SchedulerOptions options, Listener listener)
    : options_(options), listener_(std::move(listener)) {
  unsigned count = std::max(1U, options_.workers);
  for (unsigned i = 0; i < count; ++i) workers_.emplace_back([this] { workerLoop(JobKind::Latest); });
  workers_.emplace_back([this] {
    lowerThisThreadsPriority();
    workerLoop(JobKind::Full);
  });
}

Scheduler::~Scheduler() { stop(); }

void Scheduler::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

void Scheduler::setOptions(SchedulerOptions options) {
  std::lock_guard lock(mutex_);
  options.workers = options_.workers;  // The pool is sized once.
  options_ = options;
}

void Scheduler::open(const std::string& uri, std::string text, std::int64_t version, LintOptions lint,
                     std::optional<CudaSetup> cuda) {
  {
    std::lock_guard lock(mutex_);
    Entry entry;
    entry.document = std::make_unique<Document>(uri, std::move(text), version);
    entry.lint = std::move(lint);
    entry.cuda = std::move(cuda);
    entry.due = Clock::now();
    entry.generation = nextGeneration_++;
    entries_[uri] = std::move(entry);
  }
  wake_.notify_all();
}

bool Scheduler::edit(const std::string& uri, const std::function<void(Document&)>& edit) {
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(uri);
    if (it == entries_.end()) return false;
    edit(*it->second.document);
    Entry& entry = it->second;
    abandonFull(entry);
    const Clock::time_point now = Clock::now();
    const bool inBurst = now - entry.lastEdit < options_.debounce;
    entry.due = inBurst ? now + options_.debounce : now;
    entry.lastEdit = now;
  }
  wake_.notify_all();
  return true;
}

void Scheduler::abandonFull(Entry& entry) {
  if (entry.stopFull) entry.stopFull->store(true, std::memory_order_relaxed);
}

bool Scheduler::close(const std::string& uri) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(uri);
  if (it != entries_.end()) abandonFull(it->second);
  bool erased = entries_.erase(uri) > 0;
  idle_.notify_all();
  return erased;
}

std::uint64_t Scheduler::setLintOptions(const std::string& uri, LintOptions lint, std::optional<CudaSetup> cuda) {
  std::uint64_t serial = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(uri);
    if (it == entries_.end()) return 0;
    it->second.lint = std::move(lint);
    it->second.cuda = std::move(cuda);
    it->second.needsRelint = true;
    abandonFull(it->second);
    it->second.due = Clock::now();
    serial = ++it->second.settingsSerial;
  }
  wake_.notify_all();
  return serial;
}

std::vector<std::string> Scheduler::openDocuments() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> uris;
  for (const auto& [uri, entry] : entries_) uris.push_back(uri);
  return uris;
}

Scheduler::View Scheduler::view(const std::string& uri) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(uri);
  if (it == entries_.end()) return {};
  return {it->second.document->version(), it->second.latest, it->second.full, true};
}

std::optional<std::string> Scheduler::text(const std::string& uri) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(uri);
  if (it == entries_.end()) return std::nullopt;
  return it->second.document->text();
}

void Scheduler::hurry(const std::string& uri, bool full) {
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(uri);
    if (it == entries_.end()) return;
    it->second.due = Clock::now();
    if (full) it->second.fullDue = Clock::now();
  }
  wake_.notify_all();
}

bool Scheduler::busy() const {
  return std::any_of(entries_.begin(), entries_.end(), [](const auto& item) {
    const Entry& entry = item.second;
    return entry.document->hasUnsnapshottedChanges() || entry.needsRelint || entry.analyzing ||
           entry.analyzingFull || entry.wantFull;
  });
}

void Scheduler::waitIdle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return !busy(); });
}

std::optional<Scheduler::Job> Scheduler::nextJob(JobKind kind, Clock::time_point now, Clock::time_point& wakeAt) {
  for (auto& [uri, entry] : entries_) {
    bool stale = entry.document->hasUnsnapshottedChanges() || entry.needsRelint;
    if (kind == JobKind::Latest && stale && !entry.analyzing) {
      if (entry.due <= now) return Job{uri, JobKind::Latest};
      wakeAt = std::min(wakeAt, entry.due);
    }
    // A full analysis only of a text that is not about to change again.
    if (kind == JobKind::Full && entry.wantFull && !stale && !entry.analyzing && !entry.analyzingFull) {
      if (entry.fullDue <= now) return Job{uri, JobKind::Full};
      wakeAt = std::min(wakeAt, entry.fullDue);
    }
  }
  return std::nullopt;
}

void Scheduler::workerLoop(JobKind kind) {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    Clock::time_point wakeAt = Clock::time_point::max();
    std::optional<Job> job = nextJob(kind, Clock::now(), wakeAt);
    if (!job) {
      if (!busy()) idle_.notify_all();
      if (wakeAt == Clock::time_point::max()) {
        wake_.wait(lock);
      } else {
        wake_.wait_until(lock, wakeAt);
      }
      continue;
    }
    bool releasedFull = false;
    if (job->kind == JobKind::Latest) {
      releasedFull = runLatest(job->uri, lock);
    } else {
      releasedFull = runFull(job->uri, lock);
    }
    // Another worker may be waiting for the document this one just released.
    wake_.notify_all();
    idle_.notify_all();
    // A full analysis a job replaced is freed by now (the job's own references are gone):
    // hand its pages back, unlocked, so that the next one does not grow the heap beside its
    // fragments. Not after every edit's re-check: its pages are wanted again at once, and
    // faulting them back in costs the next keystroke.
    if (releasedFull) {
      lock.unlock();
      ptx::returnFreedMemory();
      lock.lock();
    }
  }
}

bool Scheduler::runLatest(const std::string& uri, std::unique_lock<std::mutex>& lock) {
  Entry& entry = entries_.find(uri)->second;
  entry.analyzing = true;
  bool relint = entry.needsRelint;
  entry.needsRelint = false;
  Snapshot snapshot = entry.document->takeSnapshot();
  std::shared_ptr<const Analysis> base = entry.latest;
  LintOptions lint = entry.lint;
  std::optional<CudaSetup> cuda = entry.cuda;
  std::uint64_t generation = entry.generation;
  std::uint64_t settingsSerial = entry.settingsSerial;
  lock.unlock();

  std::shared_ptr<const Analysis> analysis;
  try {
    std::shared_ptr<Analysis> made = cuda ? analyzeCudaSnapshot(snapshot, base, lint, *cuda, relint)
                                          : analyzePtxSnapshot(snapshot, base, lint, relint);
    made->settingsSerial = settingsSerial;
    analysis = std::move(made);
  } catch (const std::exception&) {
    // Out of memory or worse: keep serving; the next edit tries again from scratch.
  }

  lock.lock();
  auto it = entries_.find(uri);
  if (it == entries_.end() || it->second.generation != generation) return false;  // Closed meanwhile.
  Entry& current = it->second;
  if (!analysis) {
    current.analyzing = false;
    current.document->forgetEdits();
    current.due = Clock::now() + std::chrono::seconds(1);
    return false;
  }
  current.latest = analysis;
  bool releasedFull = analysis->isFull();
  if (analysis->isFull()) {
    current.full = analysis;
    current.wantFull = false;
  } else {
    current.wantFull = true;
    current.fullDue = Clock::now() + options_.fullDelay;
    // A full analysis of an older version answers no request (they need the current version,
    // and module-level names are in the incremental model too); kept, its model stood beside
    // the next full analysis's, a second copy of the largest thing the server holds.
    if (current.full && current.full->version < analysis->version) {
      current.full.reset();
      releasedFull = true;
    }
  }
  lock.unlock();
  listener_(uri, analysis);
  lock.lock();
  // Still "analyzing" until the listener has published: waitIdle must not return in between.
  finishJob(uri, generation, &Entry::analyzing);
  return releasedFull;
}

bool Scheduler::runFull(const std::string& uri, std::unique_lock<std::mutex>& lock) {
  Entry& entry = entries_.find(uri)->second;
  entry.analyzingFull = true;
  auto stop = std::make_shared<std::atomic<bool>>(false);
  entry.stopFull = stop;
  std::shared_ptr<const Analysis> base = entry.latest;
  LintOptions lint = entry.lint;
  std::optional<CudaSetup> cuda = entry.cuda;
  std::uint64_t generation = entry.generation;
  std::uint64_t settingsSerial = entry.settingsSerial;
  lock.unlock();

  LintOptions full = lint;
  full.returnFreedMemoryBetweenStages = true;
  // An edit (or new options) while this runs makes its result one that runLatest would
  // replace and no request would read: stopped, it gives the re-check of that edit the
  // machine back and does not hold a second model and every function's flow beside it.
  full.stop = stop.get();
  std::shared_ptr<const Analysis> analysis;
  bool stopped = false;
  try {
    std::shared_ptr<Analysis> made;
    if (cuda) {
      made = analyzeCudaFully(*base, lint, *cuda);
    } else {
      LintResult linted = lintTree(*base->text, base->result.tree, full);
      stopped = linted.stopped;
      if (!stopped) made = std::make_shared<Analysis>(base->text, base->version, std::move(linted), base->lines);
    }
    if (made) {
      made->settingsSerial = settingsSerial;
      analysis = std::move(made);
    }
  } catch (const std::exception&) {
  }

  lock.lock();
  auto it = entries_.find(uri);
  if (it == entries_.end() || it->second.generation != generation) return true;
  Entry& current = it->second;
  if (current.stopFull == stop) current.stopFull.reset();
  if (stopped) {
    // What stopped it owes the document a newer analysis (and then a full one). Its partial
    // model and flows are freed, but handing their pages back now would stall the re-check
    // that the stopping edit started on the other worker; the next full analysis does it.
    current.analyzingFull = false;
    return false;
  }
  if (!analysis) {
    current.analyzingFull = false;
    current.wantFull = false;
    return true;
  }
  if (!current.full || current.full->version <= analysis->version) current.full = analysis;
  if (current.latest == base) {
    // Nothing newer arrived: the full analysis also becomes the base for the next edit.
    current.latest = analysis;
    current.wantFull = false;
  }
  lock.unlock();
  listener_(uri, analysis);
  lock.lock();
  finishJob(uri, generation, &Entry::analyzingFull);
  return true;
}

void Scheduler::finishJob(const std::string& uri, std::uint64_t generation, bool Entry::*flag) {
  auto it = entries_.find(uri);
  if (it != entries_.end() && it->second.generation == generation) it->second.*flag = false;
}

}  // namespace ptx::lsp
