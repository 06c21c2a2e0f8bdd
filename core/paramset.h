#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace kwb {

// Parameter values by name, each in its canonical text form ("1048576", "f32", "auto"), as
// validation left them. Sorted by name so that equal sets compare and serialize equal.
class ParamSet {
 public:
  using Map = std::map<std::string, std::string, std::less<>>;

  ParamSet() = default;
  explicit ParamSet(Map values) : values_(std::move(values)) {}

  void set(const std::string& name, std::string value) { values_[name] = std::move(value); }
  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  bool isAuto(std::string_view name) const;

  // These throw Error(Internal) when the name is missing: validation guarantees presence.
  const std::string& get(std::string_view name) const;
  std::int64_t getInt(std::string_view name) const;

  const Map& values() const { return values_; }
  bool empty() const { return values_.empty(); }

  // "block_size=256 n=2^24" for tables and logs.
  std::string toText() const;

  friend bool operator==(const ParamSet&, const ParamSet&) = default;

 private:
  Map values_;
};

}  // namespace kwb
