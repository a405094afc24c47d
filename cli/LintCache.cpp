// LintCache: content-addressed lint results on disk (see LintCache.h for the layout).
#include "LintCache.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace ptx::cli {
namespace {

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

std::uint64_t read64(const char* at) {
  std::uint64_t value;
  std::memcpy(&value, at, sizeof value);
  return value;  // Little-endian hosts only matter here: keys never leave this machine.
}

std::uint32_t read32(const char* at) {
  std::uint32_t value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

std::uint64_t mixRound(std::uint64_t accumulator, std::uint64_t input) {
  accumulator += input * kPrime2;
  return std::rotl(accumulator, 31) * kPrime1;
}

std::uint64_t mergeRound(std::uint64_t accumulator, std::uint64_t lane) {
  accumulator ^= mixRound(0, lane);
  return accumulator * kPrime1 + kPrime4;
}

std::string hex(std::uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) out[static_cast<std::size_t>(i)] = kDigits[value & 15];
  return out;
}

// Bumped whenever the entry format or the meaning of a key changes.
constexpr std::string_view kFormat = "ptxlint-cache-1";
constexpr std::string_view kMagic = "PTXLC1\n";

constexpr std::string_view kCacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by ptxlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";

bool writeFileAtomically(const fs::path& path, std::string_view contents) {
  std::ostringstream suffix;
  suffix << ".tmp." << ::getpid() << "." << std::this_thread::get_id();
  fs::path temporary = path;
  temporary += suffix.str();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) fs::remove(temporary, error);
  return !error;
}

nlohmann::json encode(const std::vector<Diagnostic>& diagnostics) {
  nlohmann::json list = nlohmann::json::array();
  for (const Diagnostic& diagnostic : diagnostics) {
    nlohmann::json related = nlohmann::json::array();
    for (const RelatedInformation& item : diagnostic.related) {
      related.push_back({item.range.begin, item.range.end, item.message});
    }
    nlohmann::json fixes = nlohmann::json::array();
    for (const Fix& fix : diagnostic.fixes) {
      nlohmann::json edits = nlohmann::json::array();
      for (const FixEdit& edit : fix.edits) edits.push_back({edit.range.begin, edit.range.end, edit.newText});
      fixes.push_back({fix.title, fix.isPreferred, std::move(edits)});
    }
    list.push_back({diagnostic.rule, static_cast<int>(diagnostic.severity), static_cast<int>(diagnostic.category),
                    diagnostic.range.begin, diagnostic.range.end, diagnostic.message, std::move(related),
                    std::move(fixes)});
  }
  return list;
}

// The inverse of encode, checking everything: false for anything an intact entry cannot hold.
bool decode(const nlohmann::json& list, std::size_t textSize, std::vector<Diagnostic>& out) {
  auto isRange = [&](const nlohmann::json& begin, const nlohmann::json& end) {
    return begin.is_number_unsigned() && end.is_number_unsigned() && begin.get<std::uint64_t>() <= textSize &&
           end.get<std::uint64_t>() <= textSize;
  };
  if (!list.is_array()) return false;
  out.reserve(list.size());
  for (const nlohmann::json& item : list) {
    if (!item.is_array() || item.size() != 8 || !item[0].is_string() || !item[1].is_number_unsigned() ||
        item[1].get<unsigned>() > static_cast<unsigned>(Severity::Hint) || !item[2].is_number_unsigned() ||
        item[2].get<unsigned>() > static_cast<unsigned>(Category::HostApi) || !isRange(item[3], item[4]) ||
        !item[5].is_string() || !item[6].is_array() || !item[7].is_array()) {
      return false;
    }
    Diagnostic diagnostic;
    diagnostic.rule = item[0].get<std::string>();
    diagnostic.severity = static_cast<Severity>(item[1].get<unsigned>());
    diagnostic.category = static_cast<Category>(item[2].get<unsigned>());
    diagnostic.range = {item[3].get<std::uint32_t>(), item[4].get<std::uint32_t>()};
    diagnostic.message = item[5].get<std::string>();
    for (const nlohmann::json& related : item[6]) {
      if (!related.is_array() || related.size() != 3 || !isRange(related[0], related[1]) || !related[2].is_string()) {
        return false;
      }
      diagnostic.related.push_back(
          {{related[0].get<std::uint32_t>(), related[1].get<std::uint32_t>()}, related[2].get<std::string>()});
    }
    for (const nlohmann::json& fix : item[7]) {
      if (!fix.is_array() || fix.size() != 3 || !fix[0].is_string() || !fix[1].is_boolean() || !fix[2].is_array()) {
        return false;
      }
      Fix decoded{fix[0].get<std::string>(), {}, fix[1].get<bool>()};
      for (const nlohmann::json& edit : fix[2]) {
        if (!edit.is_array() || edit.size() != 3 || !isRange(edit[0], edit[1]) || !edit[2].is_string()) return false;
        decoded.edits.push_back({{edit[0].get<std::uint32_t>(), edit[1].get<std::uint32_t>()}, edit[2].get<std::string>()});
      }
      diagnostic.fixes.push_back(std::move(decoded));
    }
    out.push_back(std::move(diagnostic));
  }
  return true;
}

}  // namespace

std::uint64_t hash64(std::string_view data, std::uint64_t seed) {
  const char* at = data.data();
  const char* end = at + data.size();
  std::uint64_t hash;
  if (data.size() >= 32) {
    std::uint64_t lane1 = seed + kPrime1 + kPrime2;
    std::uint64_t lane2 = seed + kPrime2;
    std::uint64_t lane3 = seed;
    std::uint64_t lane4 = seed - kPrime1;
    for (; end - at >= 32; at += 32) {
      lane1 = mixRound(lane1, read64(at));
      lane2 = mixRound(lane2, read64(at + 8));
      lane3 = mixRound(lane3, read64(at + 16));
      lane4 = mixRound(lane4, read64(at + 24));
    }
    hash = std::rotl(lane1, 1) + std::rotl(lane2, 7) + std::rotl(lane3, 12) + std::rotl(lane4, 18);
    hash = mergeRound(hash, lane1);
    hash = mergeRound(hash, lane2);
    hash = mergeRound(hash, lane3);
    hash = mergeRound(hash, lane4);
  } else {
    hash = seed + kPrime5;
  }
  hash += data.size();
  for (; end - at >= 8; at += 8) hash = std::rotl(hash ^ mixRound(0, read64(at)), 27) * kPrime1 + kPrime4;
  if (end - at >= 4) {
    hash = std::rotl(hash ^ (read32(at) * kPrime1), 23) * kPrime2 + kPrime3;
    at += 4;
  }
  for (; at < end; ++at) hash = std::rotl(hash ^ (static_cast<unsigned char>(*at) * kPrime5), 11) * kPrime1;
  hash ^= hash >> 33;
  hash *= kPrime2;
  hash ^= hash >> 29;
  hash *= kPrime3;
  hash ^= hash >> 32;
  return hash;
}

std::string currentToolIdentity(std::string_view version) {
  std::string identity(version);
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return identity;
  std::uintmax_t size = fs::file_size(self, error);
  if (error) return identity;
  auto modified = fs::last_write_time(self, error);
  if (error) return identity;
  return identity + "|" + std::to_string(size) + "|" + std::to_string(modified.time_since_epoch().count());
}

std::unique_ptr<LintCache> LintCache::open(const fs::path& directory, std::string_view toolIdentity,
                                           std::string& problem) {
  std::error_code error;
  bool created = fs::create_directories(directory, error);
  if (error) {
    problem = "cannot create the cache folder: " + error.message();
    return nullptr;
  }
  if (created || !fs::exists(directory / "CACHEDIR.TAG", error)) {
    writeFileAtomically(directory / "CACHEDIR.TAG", kCacheDirTag);
    writeFileAtomically(directory / ".gitignore", "# Created by ptxlint.\n*\n");
  }
  std::string buildKey = hex(hash64(std::string(kFormat) + "|" + std::string(toolIdentity)));
  return std::unique_ptr<LintCache>(new LintCache(directory, std::move(buildKey)));
}

bool LintCache::cacheable(const LintOptions& options) {
  return options.parse.timeoutMicros == 0 && options.parse.cancellation == nullptr;
}

std::string LintCache::settingsKey(const LintOptions& options) const {
  std::string canonical = "max=" + std::to_string(options.maxTextBytes) +
                          "|syntax=" + std::to_string(options.syntax.maxDiagnostics) +
                          "|target=" + options.targetOverride.value_or("-");
  for (const auto& [code, setting] : options.rules) {  // A sorted map: the order is canonical.
    canonical += "|" + code + "=" + (setting.enabled ? "on" : "off") + ":" +
                 (setting.severity ? std::to_string(static_cast<int>(*setting.severity)) : std::string("-"));
  }
  return hex(hash64(canonical, 1)) + hex(hash64(canonical, 2));
}

fs::path LintCache::entryPath(std::string_view settingsKey, std::string_view text) const {
  return root_ / buildKey_ / std::string(settingsKey) / (hex(hash64(text, 3)) + hex(hash64(text, 4)));
}

std::optional<std::vector<Diagnostic>> LintCache::load(std::string_view settingsKey, std::string_view text) {
  std::ifstream in(entryPath(settingsKey, text), std::ios::binary);
  std::string contents;
  if (in) contents.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::string expectedHeader = std::string(kMagic) + std::to_string(text.size()) + "\n";
  if (!in.bad() && contents.starts_with(expectedHeader)) {
    auto body = nlohmann::json::from_msgpack(contents.begin() + static_cast<std::ptrdiff_t>(expectedHeader.size()),
                                             contents.end(), /*strict=*/true, /*allow_exceptions=*/false);
    std::vector<Diagnostic> diagnostics;
    if (!body.is_discarded() && decode(body, text.size(), diagnostics)) {
      ++hits_;
      return diagnostics;
    }
  }
  ++misses_;
  return std::nullopt;
}

void LintCache::store(std::string_view settingsKey, std::string_view text, const std::vector<Diagnostic>& diagnostics) {
  if (!prunedOtherBuilds_.exchange(true)) removeOtherBuilds();
  fs::path path = entryPath(settingsKey, text);
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error) return;
  std::string contents = std::string(kMagic) + std::to_string(text.size()) + "\n";
  nlohmann::json::to_msgpack(encode(diagnostics), contents);
  writeFileAtomically(path, contents);
}

// Findings of other builds can never be read again (their build key differs): drop them, so
// that the folder does not grow with every upgrade or rebuild. Only names shaped like build
// keys are touched.
void LintCache::removeOtherBuilds() {
  std::error_code error;
  for (fs::directory_iterator it(root_, error), end; !error && it != end; it.increment(error)) {
    std::string name = it->path().filename().string();
    bool buildKeyShaped = name.size() == 16 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
    std::error_code ignored;
    if (buildKeyShaped && name != buildKey_ && it->is_directory(ignored)) fs::remove_all(it->path(), ignored);
  }
}

}  // namespace ptx::cli
