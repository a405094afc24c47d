// FunctionResults: results that several rules derive for one function (the race search's
// witnesses, which RAC001 and RAC003 both read), computed by the first rule that asks and kept
// for the others for the length of one lint run (FlowCache::resultOf). Each is kept under its
// own type, so a result is only ever read back as the type it was stored as.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <typeindex>
#include <typeinfo>
#include <utility>

namespace ptx::flow {

class FunctionResults {
 public:
  // The result of type `Result` in `slot`; when there is none yet, `fill` completes a
  // default-built one first.
  template <typename Result, typename Fill>
  const Result& get(std::uint32_t slot, Fill fill) {
    Key key{std::type_index(typeid(Result)), slot};
    auto it = results_.find(key);
    if (it == results_.end()) {
      auto held = std::make_unique<Held<Result>>();
      fill(held->value);
      it = results_.emplace(key, std::move(held)).first;
    }
    return static_cast<const Held<Result>&>(*it->second).value;
  }

 private:
  struct Entry {
    virtual ~Entry() = default;
  };
  template <typename Result>
  struct Held final : Entry {
    Result value;
  };
  using Key = std::pair<std::type_index, std::uint32_t>;
  std::map<Key, std::unique_ptr<Entry>> results_;
};

}  // namespace ptx::flow
