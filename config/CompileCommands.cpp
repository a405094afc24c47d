// CompileCommands: finding and reading compile_commands.json, and what an nvcc entry means.
#include "CompileCommands.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <system_error>
#include <tuple>

#include <nlohmann/json.hpp>

namespace ptx::config {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

fs::path normalized(const fs::path& path, const fs::path& base) {
  return (path.is_absolute() ? path : base / path).lexically_normal();
}

// What an nvcc option means here. Options that take a value and are not listed are skipped with
// their value only when the value is attached (`-Xcompiler=-fPIC`); those whose separate value
// could look like one of ours (`-Xcompiler -DFOO`) are listed as Skip so the value is consumed.
enum class Option { Arch, Code, Gencode, Define, Undefine, Include, SystemInclude, PreInclude, Std, Rdc, HostCompiler, Skip };

struct OptionName {
  std::string_view name;  // Without the leading dashes.
  Option option;
};

// nvcc's short and long spellings (nvcc --help), dashes stripped.
constexpr std::array<OptionName, 50> kValueOptions = {{
    {"arch", Option::Arch},
    {"gpu-architecture", Option::Arch},
    {"code", Option::Code},
    {"gpu-code", Option::Code},
    {"gencode", Option::Gencode},
    {"generate-code", Option::Gencode},
    {"D", Option::Define},
    {"define-macro", Option::Define},
    {"U", Option::Undefine},
    {"undefine-macro", Option::Undefine},
    {"I", Option::Include},
    {"include-path", Option::Include},
    {"isystem", Option::SystemInclude},
    {"system-include", Option::SystemInclude},
    {"include", Option::PreInclude},
    {"pre-include", Option::PreInclude},
    {"std", Option::Std},
    {"rdc", Option::Rdc},
    {"relocatable-device-code", Option::Rdc},
    {"Xcompiler", Option::HostCompiler},
    {"compiler-options", Option::HostCompiler},
    {"Xlinker", Option::Skip},
    {"linker-options", Option::Skip},
    {"Xptxas", Option::Skip},
    {"ptxas-options", Option::Skip},
    {"Xnvlink", Option::Skip},
    {"nvlink-options", Option::Skip},
    {"Xarchive", Option::Skip},
    {"archive-options", Option::Skip},
    {"Xfatbin", Option::Skip},
    {"fatbin-options", Option::Skip},
    {"Xcudafe", Option::Skip},
    {"ccbin", Option::Skip},
    {"compiler-bindir", Option::Skip},
    {"o", Option::Skip},
    {"output-file", Option::Skip},
    {"x", Option::Skip},
    {"optf", Option::Skip},
    {"options-file", Option::Skip},
    {"odir", Option::Skip},
    {"output-directory", Option::Skip},
    {"MF", Option::Skip},
    {"dependency-output", Option::Skip},
    {"MT", Option::Skip},
    {"dependency-target-name", Option::Skip},
    {"l", Option::Skip},
    {"library", Option::Skip},
    {"L", Option::Skip},
    {"library-path", Option::Skip},
    {"maxrregcount", Option::Skip},
}};

// Flags without a value that define a macro in every pass (nvcc --dryrun: the -D it adds to the
// device preprocessing); -rdc=true, which has a value, is Option::Rdc.
struct ImpliedMacro {
  std::string_view flag;
  std::string_view macro;
};
constexpr std::array<ImpliedMacro, 7> kImpliedMacros = {{
    {"dc", "__CUDACC_RDC__"},
    {"device-c", "__CUDACC_RDC__"},
    {"expt-relaxed-constexpr", "__CUDACC_RELAXED_CONSTEXPR__"},
    {"extended-lambda", "__CUDACC_EXTENDED_LAMBDA__"},
    {"expt-extended-lambda", "__CUDACC_EXTENDED_LAMBDA__"},
    {"G", "__CUDACC_DEBUG__"},
    {"device-debug", "__CUDACC_DEBUG__"},
}};

std::optional<Option> valueOption(std::string_view name) {
  for (const OptionName& known : kValueOptions) {
    if (known.name == name) return known.option;
  }
  return std::nullopt;
}

// nvcc splits the values of -D, -U, -I, -isystem and -include at commas (`-DX=1,Y=2` is two
// macros, dryrun).
std::vector<std::string_view> commaList(std::string_view value) {
  std::vector<std::string_view> items;
  while (true) {
    std::size_t comma = value.find(',');
    if (!value.substr(0, comma).empty()) items.push_back(value.substr(0, comma));
    if (comma == std::string_view::npos) return items;
    value.remove_prefix(comma + 1);
  }
}

// -DNAME=VALUE's NAME=VALUE (or NAME, which gcc defines as 1).
MacroFlag defineFlag(std::string_view item) {
  std::size_t equals = item.find('=');
  return {std::string(item.substr(0, equals)), equals == std::string_view::npos ? "1" : std::string(item.substr(equals + 1)), false};
}

std::string unquoted(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  return std::string(value);
}

// `arch=compute_80,code=[compute_80,sm_80]` (or code="sm_80,compute_80", keys in any order):
// the pass, or a problem.
void readGencode(std::string_view value, const std::string& origin, std::vector<cuda::DevicePass>& passes,
                 std::vector<std::string>& problems) {
  std::string arch;
  std::string code;
  std::size_t start = 0;
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    char c = i < value.size() ? value[i] : ',';
    if (c == '"') quoted = !quoted;
    if (!quoted && c == '[') ++depth;
    if (!quoted && c == ']') --depth;
    if (c != ',' || quoted || depth > 0) continue;
    std::string_view item = value.substr(start, i - start);
    start = i + 1;
    std::size_t equals = item.find('=');
    std::string_view key = item.substr(0, equals);
    std::string itemValue = equals == std::string_view::npos ? std::string() : unquoted(item.substr(equals + 1));
    if (key == "arch") {
      arch = itemValue;
    } else if (key == "code") {
      code = itemValue;
    } else {
      problems.push_back("'" + std::string(item) + "' in " + origin + " is not arch=... or code=...");
    }
  }
  if (arch.empty()) {
    problems.push_back(origin + " names no arch=");
    return;
  }
  cuda::PassList list = cuda::passesForGencode(arch, code, origin);
  if (!list.error.empty()) problems.push_back(list.error + " in " + origin);
  cuda::appendUnique(passes, list.passes);
}

bool isLauncher(const fs::path& program) {
  std::string name = program.stem().string();
  return name == "ccache" || name == "sccache" || name == "distcc" || name == "icecc" || name == "buildcache";
}

std::size_t commonComponents(const fs::path& a, const fs::path& b) {
  std::size_t count = 0;
  for (auto x = a.begin(), y = b.begin(); x != a.end() && y != b.end() && *x == *y; ++x, ++y) ++count;
  return count;
}

}  // namespace

std::optional<fs::path> findCompilationDatabase(const fs::path& file) {
  std::error_code error;
  fs::path folder = fs::absolute(file, error).lexically_normal().parent_path();
  for (int depth = 0; depth < 64 && !folder.empty(); ++depth) {
    for (const fs::path& candidate : {folder / "compile_commands.json", folder / "build" / "compile_commands.json"}) {
      if (fs::is_regular_file(candidate, error)) return candidate;
    }
    fs::path parent = folder.parent_path();
    if (parent == folder) break;
    folder = parent;
  }
  return std::nullopt;
}

std::optional<fs::path> compilationDatabaseIn(const fs::path& directory) {
  std::error_code error;
  if (fs::is_regular_file(directory, error)) return directory;
  fs::path candidate = directory / "compile_commands.json";
  if (fs::is_regular_file(candidate, error)) return candidate;
  return std::nullopt;
}

CompilationDatabase loadCompilationDatabase(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    CompilationDatabase database;
    database.path = path;
    database.unusable = "cannot open file";
    return database;
  }
  std::stringstream contents;
  contents << in.rdbuf();
  return parseCompilationDatabase(contents.str(), path);
}

CompilationDatabase parseCompilationDatabase(std::string_view text, const fs::path& path) {
  CompilationDatabase database;
  database.path = path;
  json entries;
  try {
    entries = json::parse(text);
  } catch (const json::exception& error) {
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..." → from "parse error".
    std::string what = error.what();
    std::size_t bracket = what.find("] ");
    database.unusable = "not valid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2));
    return database;
  }
  if (!entries.is_array()) {
    database.unusable = "not a JSON array";
    return database;
  }
  fs::path base = path.parent_path();
  for (std::size_t index = 0; index < entries.size(); ++index) {
    const json& entry = entries[index];
    std::string where = "entry " + std::to_string(index + 1);
    if (!entry.is_object()) {
      database.problems.push_back(where + ": not an object");
      continue;
    }
    auto stringAt = [&](const char* key) -> std::optional<std::string> {
      auto found = entry.find(key);
      if (found == entry.end() || !found->is_string()) return std::nullopt;
      return found->get<std::string>();
    };
    CompileCommand command;
    std::optional<std::string> file = stringAt("file");
    if (!file || file->empty()) {
      database.problems.push_back(where + ": no \"file\" string");
      continue;
    }
    // "directory" is required by the format; without one, the database's folder is the best guess.
    command.directory = normalized(stringAt("directory").value_or(base.string()), base);
    command.file = normalized(*file, command.directory);
    if (auto arguments = entry.find("arguments"); arguments != entry.end()) {
      bool strings = arguments->is_array() &&
                     std::all_of(arguments->begin(), arguments->end(), [](const json& argument) { return argument.is_string(); });
      if (!strings) {
        database.problems.push_back(where + ": \"arguments\" is not an array of strings");
        continue;
      }
      for (const json& argument : *arguments) command.arguments.push_back(argument.get<std::string>());
    } else if (std::optional<std::string> line = stringAt("command")) {
      command.arguments = splitCommandLine(*line);
    } else {
      database.problems.push_back(where + ": neither \"arguments\" nor a \"command\" string");
      continue;
    }
    if (command.arguments.empty()) {
      database.problems.push_back(where + ": empty command");
      continue;
    }
    database.commands.push_back(std::move(command));
  }
  return database;
}

std::vector<std::string> splitCommandLine(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (inWord) words.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '\\' && i + 1 < command.size()) {
      // A backslash-newline is a line continuation, not a character.
      if (command[++i] != '\n') word.push_back(command[i]);
    } else if (c == '\'') {
      std::size_t end = command.find('\'', i + 1);
      if (end == std::string_view::npos) end = command.size();
      word.append(command.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      for (++i; i < command.size() && command[i] != '"'; ++i) {
        char next = i + 1 < command.size() ? command[i + 1] : '\0';
        if (command[i] == '\\' && (next == '"' || next == '\\' || next == '$' || next == '`' || next == '\n')) {
          ++i;
          if (next == '\n') continue;
        }
        word.push_back(command[i]);
      }
    } else {
      word.push_back(c);
    }
  }
  if (inWord) words.push_back(std::move(word));
  return words;
}

CommandMatch commandFor(const CompilationDatabase& database, const fs::path& file) {
  std::error_code error;
  fs::path wanted = fs::absolute(file, error).lexically_normal();
  fs::path canonical = fs::weakly_canonical(wanted, error);
  for (const CompileCommand& command : database.commands) {
    if (command.file == wanted || (!error && command.file == canonical)) return {&command, false};
  }
  const CompileCommand* best = nullptr;
  std::tuple<std::size_t, bool, bool> bestScore{};
  fs::path folder = wanted.parent_path();
  for (const CompileCommand& command : database.commands) {
    std::tuple<std::size_t, bool, bool> score{commonComponents(command.file.parent_path(), folder),
                                              command.file.stem() == wanted.stem(), command.file.extension() == ".cu"};
    if (best == nullptr || score > bestScore) {
      best = &command;
      bestScore = score;
    }
  }
  return {best, best != nullptr};
}

NvccCommand readNvccCommand(const CompileCommand& command) {
  NvccCommand nvcc;
  nvcc.directory = command.directory;
  nvcc.arguments = command.arguments;
  std::size_t first = 0;
  if (first < command.arguments.size() && isLauncher(command.arguments[first])) ++first;
  if (first >= command.arguments.size() || fs::path(command.arguments[first]).stem() != "nvcc") return nvcc;
  nvcc.isNvcc = true;

  struct Spelled {
    std::string value;
    std::string origin;  // As written: "-arch=sm_90a" or "-arch sm_90a".
  };
  std::optional<Spelled> arch;
  std::optional<Spelled> code;
  std::vector<Spelled> gencodes;
  std::vector<MacroFlag> impliedMacros;  // From -rdc=true, -G ...
  std::vector<MacroFlag> hostMacros;     // From -Xcompiler.
  const std::vector<std::string>& args = command.arguments;
  for (std::size_t i = first + 1; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') continue;  // Inputs, and response files (@file).
    std::string_view body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string_view name = body;
    std::optional<std::string_view> value;
    if (arg[1] == 'D' || arg[1] == 'U' || arg[1] == 'I') {
      name = body.substr(0, 1);  // -DNAME=VALUE, -UNAME, -Idir: the value attached.
      if (body.size() > 1) value = body.substr(1);
    } else if (std::size_t equals = body.find('='); equals != std::string_view::npos) {
      name = body.substr(0, equals);
      value = body.substr(equals + 1);
    }
    std::optional<Option> option = valueOption(name);
    if (!option) {
      for (const ImpliedMacro& implied : kImpliedMacros) {
        if (implied.flag == name && !value) impliedMacros.push_back({std::string(implied.macro), "1", false});
      }
      continue;
    }
    std::string origin(arg);
    if (!value) {
      if (i + 1 >= args.size()) break;
      value = args[++i];
      origin += " " + args[i];
    }
    switch (*option) {
      case Option::Arch:
        arch = Spelled{std::string(*value), origin};
        break;
      case Option::Code:
        code = Spelled{std::string(*value), origin};
        break;
      case Option::Gencode:
        gencodes.push_back({std::string(*value), origin});
        break;
      case Option::Define:
        for (std::string_view item : commaList(*value)) nvcc.macroFlags.push_back(defineFlag(item));
        break;
      case Option::Undefine:
        for (std::string_view item : commaList(*value)) nvcc.macroFlags.push_back({std::string(item), "", true});
        break;
      case Option::Include:
        for (std::string_view item : commaList(*value)) nvcc.includeDirs.push_back(normalized(item, command.directory));
        break;
      case Option::SystemInclude:
        for (std::string_view item : commaList(*value)) nvcc.systemIncludeDirs.push_back(normalized(item, command.directory));
        break;
      case Option::PreInclude:
        for (std::string_view item : commaList(*value)) nvcc.preIncludes.emplace_back(item);
        break;
      case Option::Std:
        nvcc.standard = std::string(*value);
        break;
      case Option::Rdc:
        if (*value == "true") impliedMacros.push_back({"__CUDACC_RDC__", "1", false});
        break;
      case Option::HostCompiler:
        // nvcc preprocesses each device pass with the host compiler and these flags (dryrun:
        // `-Xcompiler -DX,-UY` reaches the device `gcc -E`), pasted into a shell line, so a
        // value holds several flags separated by commas or blanks.
        for (std::string_view item : commaList(*value)) {
          for (const std::string& flag : splitCommandLine(item)) {
            if (flag.size() < 3 || flag[0] != '-') continue;
            std::string_view rest = std::string_view(flag).substr(2);
            if (flag[1] == 'D') hostMacros.push_back(defineFlag(rest));
            if (flag[1] == 'U') hostMacros.push_back({std::string(rest), "", true});
            if (flag[1] == 'I') nvcc.includeDirs.push_back(normalized(rest, command.directory));
          }
        }
        break;
      case Option::Skip:
        break;
    }
  }
  // The device preprocessing sees nvcc's flag macros, then the host compiler's flags, then
  // nvcc's -D/-U (dryrun: `-DX=1 -Xcompiler -DX=2` leaves X=1).
  hostMacros.insert(hostMacros.begin(), impliedMacros.begin(), impliedMacros.end());
  nvcc.macroFlags.insert(nvcc.macroFlags.begin(), hostMacros.begin(), hostMacros.end());

  // The last -arch counts (nvcc: "the last value of this option was used"); with -code it must
  // be virtual and is the only pass, as one -gencode; -gencode passes follow -arch's.
  if (code && !arch) nvcc.problems.push_back(code->origin + " without -arch (nvcc: \"-arch option not specified\")");
  if (arch) {
    cuda::PassList list = code ? cuda::passesForGencode(arch->value, code->value, arch->origin + " " + code->origin)
                               : cuda::passesForArch(arch->value, arch->origin);
    if (!list.error.empty()) nvcc.problems.push_back(list.error + " in " + arch->origin);
    cuda::appendUnique(nvcc.passes, list.passes);
  }
  for (const Spelled& gencode : gencodes) readGencode(gencode.value, gencode.origin, nvcc.passes, nvcc.problems);
  if (!arch && !code && gencodes.empty()) {
    nvcc.defaultArch = true;
    nvcc.passes = cuda::passesForArch("sm_75", "nvcc's default -arch=sm_75").passes;
  }
  return nvcc;
}

std::vector<std::pair<std::string, std::string>> macrosFor(const NvccCommand& command, const cuda::DevicePass& pass) {
  std::vector<std::pair<std::string, std::string>> macros = pass.macros(command.passes);
  for (const MacroFlag& flag : command.macroFlags) {
    auto same = std::find_if(macros.begin(), macros.end(), [&](const auto& macro) { return macro.first == flag.name; });
    if (flag.undefine) {
      if (same != macros.end()) macros.erase(same);
    } else if (same != macros.end()) {
      same->second = flag.value;
    } else {
      macros.emplace_back(flag.name, flag.value);
    }
  }
  return macros;
}

CudaTargets cudaTargetsFor(const fs::path& file, const CompilationDatabase& database) {
  CudaTargets targets;
  targets.database = database.path;
  if (!database.unusable.empty()) {
    targets.problems.push_back(database.path.string() + ": " + database.unusable);
    return targets;
  }
  CommandMatch match = commandFor(database, file);
  if (match.command == nullptr) {
    targets.problems.push_back(database.path.string() + " has no usable entry");
    return targets;
  }
  targets.command = *match.command;
  targets.inferred = match.inferred;
  targets.nvcc = readNvccCommand(*match.command);
  std::string entry = "the entry for " + match.command->file.string() + " in " + database.path.string();
  if (!targets.nvcc.isNvcc) targets.problems.push_back(entry + " does not run nvcc");
  for (const std::string& problem : targets.nvcc.problems) targets.problems.push_back(entry + ": " + problem);
  return targets;
}

CudaTargets cudaTargetsFor(const fs::path& file, const std::optional<fs::path>& explicitDirectory) {
  std::optional<fs::path> found = explicitDirectory ? compilationDatabaseIn(*explicitDirectory) : findCompilationDatabase(file);
  if (!found) {
    CudaTargets targets;
    targets.problems.push_back(explicitDirectory ? "no compile_commands.json in " + explicitDirectory->string()
                                                 : "no compile_commands.json in the file's folder, the folders above it or their build/");
    return targets;
  }
  return cudaTargetsFor(file, loadCompilationDatabase(*found));
}

}  // namespace ptx::config
