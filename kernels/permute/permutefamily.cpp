// The permute family: any permutation of up to 8 dimensions, from one thread per element with
// 64-bit index arithmetic to simplified dimensions and 16-byte movements.
#include <memory>

#include "core/error.h"
#include "kernels/launchgeometry.h"
#include "kernels/permute/permutelaunch.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

using permute::Permutation;

constexpr int kWaves = 32;
// Elements in one tensor at most: far past any device's memory, and safe from overflow.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;

std::vector<ParamSpec> commonParams() {
  return {
      listParam("shape", ParamRole::Problem, 1, std::int64_t{1} << 31, permute::kMaxDims,
                "64,512,512", "elements", "sizes of the source's dimensions, outermost first"),
      listParam("perm", ParamRole::Problem, 0, permute::kMaxDims - 1, permute::kMaxDims, "0,2,1",
                "", "destination dimension i is source dimension perm[i], as x.permute(perm)"),
      choiceParam("dtype", ParamRole::Problem, {"f32", "f16", "bf16", "f64", "u8"}, "f32", "",
                  "element type; a permutation moves its bytes unchanged"),
      integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads", "threads per block",
                   32),
  };
}

ParamSpec movementParam() {
  ParamSpec spec =
      choiceParam("movement_size", ParamRole::Launch, {"1", "2", "4", "8", "16"}, "auto", "bytes",
                  "bytes moved per access when the innermost dimension stays "
                  "innermost; auto is the widest the shape allows");
  spec.allowsAuto = true;
  return spec;
}

Permutation permutationOf(const ParamSet& p) {
  Permutation out;
  out.shape = listItems(p.get("shape"));
  for (std::int64_t axis : listItems(p.get("perm"))) out.perm.push_back(static_cast<int>(axis));
  return out;
}

int elementBytes(const ParamSet& p) {
  return static_cast<int>(sizeOf(*parseDType(p.get("dtype"))));
}

std::string listText(const std::vector<std::int64_t>& items) {
  std::string text;
  for (auto v : items) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

std::string listText(const std::vector<int>& items) {
  return listText(std::vector<std::int64_t>(items.begin(), items.end()));
}

class PermuteWorkload final : public Workload {
 public:
  PermuteWorkload(Permutation original, DType dtype, permute::PermuteLaunch launch,
                  ParamSet derived)
      : original_(std::move(original)),
        dtype_(dtype),
        launch_(std::move(launch)),
        derived_(std::move(derived)) {}

  std::vector<BufferSpec> buffers() const override {
    const auto count = static_cast<std::size_t>(original_.elements());
    return {{"x", dtype_, count, false}, {"out", dtype_, count, true}};
  }
  std::uint64_t bytesMoved() const override {
    return 2 * static_cast<std::uint64_t>(original_.elements()) * sizeOf(dtype_);
  }
  ParamSet derived() const override { return derived_; }
  double tolerance() const override { return 0; }  // bytes move unchanged

  void enqueue(std::span<void* const> buffers, cudaStream_t stream) const override {
    permute::PermuteLaunch l = launch_;
    l.src = buffers[0];
    l.dst = buffers[1];
    permute::launchPermute(l, stream);
  }

  void reference(std::span<const HostArray> inputs, std::size_t, std::size_t begin,
                 std::span<double> out) const override {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = inputs[0].at(static_cast<std::size_t>(
          permute::sourceOffset(original_, static_cast<std::int64_t>(begin + i))));
  }

 private:
  Permutation original_;
  DType dtype_;
  permute::PermuteLaunch launch_;
  ParamSet derived_;
};

enum class Kind { Naive, Simplified, Movement };

class PermuteVariant final : public Variant {
 public:
  PermuteVariant(Kind kind, VariantInfo info) : Variant(std::move(info)), kind_(kind) {}

  void check(const ParamSet& p) const override {
    const Permutation perm = permutationOf(p);
    permute::checkPermutation(perm);
    std::int64_t elements = 1;
    for (std::int64_t size : perm.shape) {
      if (elements > kMaxElements / size)
        throw paramError("shape", p.get("shape") + " has more than 2^40 elements");
      elements *= size;
    }
    if (kind_ != Kind::Movement || p.isAuto("movement_size")) return;
    const int bytes = elementBytes(p);
    const int forced = static_cast<int>(p.getInt("movement_size"));
    const Permutation s = permute::simplify(perm);
    if (forced == bytes) return;
    if (forced < bytes)
      throw paramError("movement_size",
                       std::to_string(forced) + " bytes is less than one " + p.get("dtype") +
                           " element; allowed: " + std::to_string(bytes) + " or more, or auto");
    if (s.perm.back() != static_cast<int>(s.shape.size()) - 1)
      throw paramError("movement_size", "the innermost dimension moves (simplified: shape " +
                                            listText(s.shape) + ", perm " + listText(s.perm) +
                                            "), so each access moves one element; allowed: " +
                                            std::to_string(bytes) + " or auto");
    if (s.shape.back() * bytes % forced != 0)
      throw paramError("movement_size",
                       "rows of " + std::to_string(s.shape.back() * bytes) +
                           " bytes (the innermost simplified dimension) do not divide into " +
                           std::to_string(forced) + "-byte movements; allowed: up to " +
                           std::to_string(permute::movementSize(s, bytes, 0, 0)) + " or auto");
  }

  std::unique_ptr<Workload> create(const ParamSet& p, const DeviceInfo& device) const override {
    const Permutation original = permutationOf(p);
    const DType dtype = *parseDType(p.get("dtype"));
    const int bytes = static_cast<int>(sizeOf(dtype));
    permute::PermuteLaunch l;
    l.block = static_cast<int>(p.getInt("block_size"));
    l.unitBytes = bytes;
    ParamSet derived;
    if (kind_ == Kind::Naive) {
      l.walk = permute::PermuteWalk::Naive;
      l.plan = original;
      l.grid = static_cast<int>((original.elements() + l.block - 1) / l.block);
      derived = describeGrid(l.grid, l.block, device);
    } else {
      const Permutation s = permute::simplify(original);
      l.plan = s;
      if (kind_ == Kind::Movement) {
        // cudaMalloc's 256-byte alignment leaves the shape as the only limit.
        const int limit =
            p.isAuto("movement_size") ? 16 : static_cast<int>(p.getInt("movement_size"));
        l.unitBytes = permute::movementSize(s, bytes, 0, 0, limit);
        l.plan = permute::inMovementUnits(s, bytes, l.unitBytes);
        derived.set("movement_size_used", std::to_string(l.unitBytes));
      }
      l.index32 = l.plan.elements() <= INT32_MAX;
      l.grid = gridForWaves(static_cast<std::uint64_t>(l.plan.elements()), l.block, kWaves, device);
      const ParamSet grid = describeGrid(l.grid, l.block, device);
      for (const auto& [name, value] : grid.values()) derived.set(name, value);
      derived.set("simplified_shape", listText(s.shape));
      derived.set("simplified_perm", listText(s.perm));
      derived.set("index_bits", l.index32 ? "32" : "64");
    }
    return std::make_unique<PermuteWorkload>(original, dtype, std::move(l), std::move(derived));
  }

 private:
  Kind kind_;
};

VariantInfo info(std::string name, std::string summary, std::string teaches, bool movement) {
  auto params = commonParams();
  if (movement) params.push_back(movementParam());
  return {"permute",          std::move(name),   std::move(summary),
          std::move(teaches), std::move(params), "shape"};
}

}  // namespace

void registerPermuteFamily(Registry& registry) {
  registry.addFamily("permute", "any permutation of up to 8 dimensions, transposes included");
  registry.addVariant(std::make_unique<PermuteVariant>(
      Kind::Naive, info("naive", "one element per thread, every dimension, 64-bit indices",
                        "Each thread turns its destination offset into a source offset by "
                        "dividing through every dimension given, in 64-bit arithmetic: correct "
                        "for any permutation, and as slow as its divisions and 4-byte "
                        "scattered reads make it.",
                        false)));
  registry.addVariant(std::make_unique<PermuteVariant>(
      Kind::Simplified,
      info("simplified", "size-1 dimensions dropped, neighbours merged, 32-bit indices",
           "Dimensions of size 1 move nothing and dimensions that stay neighbours move as one: "
           "(64, 64, 128, 128) with (2, 3, 0, 1) is a (4096, 16384) transpose. Fewer dimensions "
           "mean fewer divisions per element, and 32-bit indices cheaper ones.",
           false)));
  registry.addVariant(std::make_unique<PermuteVariant>(
      Kind::Movement,
      info("movement", "simplified, and up to 16 bytes per access",
           "When the innermost dimension stays innermost, a whole run of it moves as one access "
           "of up to 16 bytes: (16, 3, 512, 512) with (0, 2, 3, 1) keeps nothing innermost, "
           "(32, 128, 16, 64) with (0, 2, 1, 3) moves rows of 64 elements. Force movement_size "
           "to see what each width is worth.",
           true)));
}

}  // namespace kwb
