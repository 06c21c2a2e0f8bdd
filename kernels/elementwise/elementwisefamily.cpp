// The elementwise family: unary, binary and ternary ops in the OneFlow style, from one thread per
// element up to 16-byte packs with pair math, to show what it takes to reach the copy ceiling.
#include <memory>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/elementwise/elementwiselaunch.h"
#include "kernels/launchgeometry.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

constexpr int kAutoWaves = 32;  // OneFlow's kNumWaves

// Blocks of `block` threads the device holds at once: a wave.
std::int64_t waveBlocks(int block, const DeviceInfo& device) {
  return std::int64_t{device.smCount} * (device.maxThreadsPerSm / block);
}

// unroll=auto: 1 pack a thread, but 2 where the grid of 2 still fills enough waves of the device
// (every SM's block slots): for gelu in 16-bit pairs, whose two packs' erf interleave, from 1
// wave; for narrowing casts, whose stores are half their loads' width, from 4. Against PyTorch's
// kernel on an H200 (ncu, 3 rounds, every op and dtype, 2.4 to 67 million elements): 1 pack read
// 0.975 of its speed or more; the earlier rule (4, else 2, wherever that filled a wave) fell to
// 0.932 (bf16 silu at 6.3 million); pair gelu with 2 rose from 1.01 to 1.09-1.15 from 16 million
// halves; f32 to f16 with 2 rose from 0.96-0.98 to 1.00 at 12.6 to 33 million floats (5.8 to
// 15.5 waves) and fell 2 % at 2.4 million. gelu_tanh, an exponential and a reciprocal an element,
// reads as fast with 1 (1.21-1.22 of PyTorch at 67 million halves against 1.19-1.21 with 2).
int autoUnroll(const ElementwiseLaunch& l, std::int64_t packs, const DeviceInfo& device) {
  const bool pairGelu = l.walk == ElementwiseWalk::PackedPairs && l.op == ElementwiseOp::Gelu;
  const bool narrowing = sizeOf(l.out) < sizeOf(l.in);
  if (!pairGelu && !narrowing) return 1;
  const std::int64_t blocks = ((packs + 1) / 2 + l.block - 1) / l.block;
  return blocks >= (pairGelu ? 1 : 4) * waveBlocks(l.block, device) ? 2 : 1;
}

constexpr int kMaxPackBytes = 16;

// pack_size=auto: 16-byte packs, but 16-bit data in 8-byte ones where 16-byte packs would leave
// block slots of the device empty: twice the threads share the math of a small call, which is
// the limit there (the pairs go through float). On an H100 against PyTorch's kernel (ncu): gelu
// on 150528 halves 0.976 -> 0.990 of its speed, at 2^20 0.972 -> 1.000, silu at 2^20 1.014 ->
// 1.085. f32 read slower in 8-byte packs (gelu at 2^20: 0.958 of PyTorch) and keeps 16 bytes.
int autoPack(std::int64_t n, int elementBytes, int block, const DeviceInfo& device) {
  const int widest = kMaxPackBytes / elementBytes;
  if (elementBytes != 2) return widest;
  const std::int64_t blocks = (n / widest + block - 1) / block;
  return blocks >= waveBlocks(block, device) ? widest : widest / 2;
}

// block_size=auto for the packed kernels: 128 threads for f32 gelu, 256 otherwise. On an H100
// against PyTorch's kernel (ncu, median of rounds) f32 gelu at 2^20 read 0.979-0.994 of its speed
// in blocks of 256 and 1.003-1.008 in blocks of 128, as PyTorch launches it. 16-bit gelu read no
// faster in blocks of 128 (at 2408448 0.95-0.98 in either), and the other ops showed no block size
// faster throughout.
int autoBlock(ElementwiseOp op, DType in) {
  return op == ElementwiseOp::Gelu && in == DType::F32 ? 128 : 256;
}

ParamSpec autoBlockParam(ParamSpec spec) {
  spec.defaultValue = "auto";
  spec.allowsAuto = true;
  spec.meaning += "; auto is 128 for f32 gelu, else 256";
  return spec;
}

std::vector<std::string> opChoices() {
  std::vector<std::string> choices;
  for (auto name : elementwiseOpNames()) choices.emplace_back(name);
  return choices;
}

std::vector<ParamSpec> commonParams() {
  return {
      integerParam("n", ParamRole::Problem, 1, std::int64_t{1} << 34, "16777216", "elements",
                   "number of elements of each input and of the output"),
      choiceParam("op", ParamRole::Problem, opChoices(), "relu", "",
                  "relu, gelu (erf), gelu_tanh, silu, mul (x*y), muladd (x*y+z), cast"),
      choiceParam("dtype", ParamRole::Problem, {"f32", "f16", "bf16"}, "f32", "",
                  "element type of the inputs"),
      choiceParam("out_dtype", ParamRole::Problem, {"same", "f32", "f16", "bf16"}, "same", "",
                  "element type of the output: same as the inputs, except for cast"),
      integerParam("offset", ParamRole::Problem, 0, 15, "0", "elements",
                   "inputs start this many elements into their buffers: misaligns them"),
      integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads", "threads per block",
                   32),
  };
}

ParamSpec wavesParam() {
  ParamSpec spec = integerParam("waves", ParamRole::Launch, 1, 64, "auto", "waves",
                                "grid size in full waves of the device; auto is 32 as in OneFlow");
  spec.allowsAuto = true;
  return spec;
}

ParamSpec packParam() {
  return autoChoiceParam("pack_size", ParamRole::Launch, {"1", "2", "4", "8"}, "elements",
                         "elements per 16-byte-at-most access; auto is the widest (16 bytes), or 8 "
                         "bytes of 16-bit data where 16-byte packs would not fill every SM's "
                         "block slots");
}

struct Types {
  ElementwiseOp op;
  DType in;
  DType out;
};

Types typesOf(const ParamSet& p) {
  const ElementwiseOp op = *parseElementwiseOp(p.get("op"));
  const DType in = *parseDType(p.get("dtype"));
  const std::string& outName = p.get("out_dtype");
  return {op, in, outName == "same" ? in : *parseDType(outName)};
}

void checkTypes(const ParamSet& p) {
  const Types t = typesOf(p);
  if (t.op != ElementwiseOp::Cast) {
    if (t.out != t.in)
      throw paramError("out_dtype", "only cast changes the type; allowed for " +
                                        std::string(toString(t.op)) + ": same, " + p.get("dtype"));
    return;
  }
  if (t.in == DType::F32 && t.out == DType::F32)
    throw paramError("out_dtype",
                     std::string("cast from f32 needs another output type; allowed: f16, bf16"));
  if (t.in != DType::F32 && t.out != DType::F32)
    throw paramError("out_dtype", "cast goes between f32 and f16/bf16; allowed for dtype=" +
                                      p.get("dtype") + ": f32");
}

int widestElement(const Types& t) {
  return static_cast<int>(std::max(sizeOf(t.in), sizeOf(t.out)));
}

// The widest pack, at most `requested`, whose accesses stay aligned when the inputs start
// `inputOffsetBytes` into a 256-byte-aligned allocation (the output always starts one).
int alignedPack(int requested, const Types& t, std::uint64_t inputOffsetBytes) {
  int pack = requested;
  while (pack > 1 && inputOffsetBytes % (pack * sizeOf(t.in)) != 0) pack /= 2;
  return pack;
}

class ElementwiseWorkload final : public Workload {
 public:
  ElementwiseWorkload(ElementwiseLaunch launch, std::int64_t offset, ParamSet derived)
      : launch_(launch),
        kernel_(findElementwiseKernel(launch)),
        offset_(offset),
        derived_(std::move(derived)) {
    checkBlockFits(kernel_.function, launch_.block);
  }

  std::vector<BufferSpec> buffers() const override {
    std::vector<BufferSpec> specs;
    const auto count = static_cast<std::size_t>(launch_.n + offset_);
    for (int a = 0; a < arity(launch_.op); ++a)
      specs.push_back({std::string(1, static_cast<char>('x' + a)), launch_.in, count, false});
    specs.push_back({"out", launch_.out, static_cast<std::size_t>(launch_.n), true});
    return specs;
  }
  std::uint64_t bytesMoved() const override {
    return static_cast<std::uint64_t>(launch_.n) *
           (arity(launch_.op) * sizeOf(launch_.in) + sizeOf(launch_.out));
  }
  std::optional<double> flops() const override {
    return static_cast<double>(launch_.n) * flopsPerElement(launch_.op);
  }
  ParamSet derived() const override { return derived_; }
  double tolerance() const override { return verificationTolerance(launch_.out); }

  void enqueue(std::span<void* const> buffers, cudaStream_t stream) const override {
    ElementwiseLaunch l = launch_;
    const int a = arity(l.op);
    const std::size_t shift = static_cast<std::size_t>(offset_) * sizeOf(l.in);
    for (int i = 0; i < a; ++i) l.inputs[i] = static_cast<const char*>(buffers[i]) + shift;
    l.output = buffers[a];
    kernel_.launch(l, stream);
  }

  void reference(std::span<const HostArray> inputs, std::size_t, std::size_t begin,
                 std::span<double> out) const override {
    const int a = arity(launch_.op);
    const auto at = [&](int input, std::size_t i) {
      return input < a ? inputs[input].at(i + static_cast<std::size_t>(offset_)) : 0.0;
    };
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = referenceValue(launch_.op, at(0, begin + i), at(1, begin + i), at(2, begin + i));
  }

 private:
  ElementwiseLaunch launch_;
  ElementwiseKernel kernel_;
  std::int64_t offset_;
  ParamSet derived_;
};

class ElementwiseVariant final : public Variant {
 public:
  ElementwiseVariant(ElementwiseWalk walk, VariantInfo info)
      : Variant(std::move(info)), walk_(walk) {}

  void check(const ParamSet& p) const override {
    checkTypes(p);
    const Types t = typesOf(p);
    if (walk_ == ElementwiseWalk::PackedPairs && sizeOf(t.in) != 2 && sizeOf(t.out) != 2)
      throw paramError("dtype",
                       "packed_half2 works on half2/bfloat162 pairs and needs f16 or bf16 "
                       "data; allowed: f16, bf16 (use packed for f32)");
    if (!p.has("pack_size") || p.isAuto("pack_size")) return;
    const int pack = static_cast<int>(p.getInt("pack_size"));
    const int bytes = pack * widestElement(t);
    if (bytes > kMaxPackBytes)
      throw paramError(
          "pack_size",
          std::to_string(pack) + " elements of " + std::to_string(widestElement(t)) +
              " bytes make " + std::to_string(bytes) +
              " bytes, more than one 16-byte access; allowed here: " + allowedPacks(t));
    if (walk_ == ElementwiseWalk::PackedPairs && pack < 2)
      throw paramError("pack_size",
                       "pairs need at least 2 elements per pack; allowed here: " + allowedPacks(t));
  }

  std::unique_ptr<Workload> create(const ParamSet& p, const DeviceInfo& device) const override {
    const Types t = typesOf(p);
    ElementwiseLaunch l;
    l.op = t.op;
    l.in = t.in;
    l.out = t.out;
    l.n = p.getInt("n");
    l.block =
        p.isAuto("block_size") ? autoBlock(t.op, t.in) : static_cast<int>(p.getInt("block_size"));
    l.walk = walk_;
    const std::int64_t offset = p.getInt("offset");

    ParamSet derived;
    if (walk_ == ElementwiseWalk::Naive) {
      l.grid = static_cast<int>((l.n + l.block - 1) / l.block);
      derived = describeGrid(l.grid, l.block, device);
    } else {
      const int requested = walk_ == ElementwiseWalk::GridStride ? 1
                            : p.isAuto("pack_size")
                                ? autoPack(l.n, widestElement(t), l.block, device)
                                : static_cast<int>(p.getInt("pack_size"));
      // cudaMalloc returns 256-byte-aligned memory: only the offset can misalign.
      l.pack = alignedPack(std::min(requested, 8), t, offset * sizeOf(t.in));
      if (l.walk == ElementwiseWalk::PackedPairs && l.pack < 2) l.walk = ElementwiseWalk::Packed;
      const std::int64_t packs = l.n / l.pack;
      l.unroll = !p.has("unroll")     ? 1
                 : p.isAuto("unroll") ? autoUnroll(l, packs, device)
                                      : static_cast<int>(p.getInt("unroll"));
      const int waves = p.isAuto("waves") ? kAutoWaves : static_cast<int>(p.getInt("waves"));
      const std::int64_t items = std::max<std::int64_t>((packs + l.unroll - 1) / l.unroll, 1);
      l.grid = gridForWaves(static_cast<std::uint64_t>(items), l.block, waves, device);
      derived = describeGrid(l.grid, l.block, device);
      derived.set("index_bits", l.index32() ? "32" : "64");
      derived.set("waves_used", std::to_string(waves));
      derived.set("passes", std::to_string(l.passes()));
      derived.set("pack_size_used", std::to_string(l.pack));
      if (p.isAuto("block_size")) derived.set("block_size_used", std::to_string(l.block));
      if (p.has("unroll")) derived.set("unroll_used", std::to_string(l.unroll));
      if (walk_ != ElementwiseWalk::GridStride)
        derived.set("math", l.walk == ElementwiseWalk::PackedPairs ? "pairs" : "scalar");
    }
    return std::make_unique<ElementwiseWorkload>(l, offset, std::move(derived));
  }

 private:
  static std::string allowedPacks(const Types& t) {
    std::string text;
    for (int pack : {1, 2, 4, 8})
      if (pack * widestElement(t) <= kMaxPackBytes)
        text += (text.empty() ? "" : ", ") + std::to_string(pack);
    return text + " or auto";
  }

  ElementwiseWalk walk_;
};

ParamSpec unrollParam() {
  return autoChoiceParam(
      "unroll", ParamRole::Launch, {"1", "2", "4"}, "packs",
      "packs each thread loads before it computes: loads in flight per thread; auto is 1, or 2 "
      "for gelu in 16-bit pairs where every SM still gets its full share of blocks, and for "
      "narrowing casts where it gets four times its share");
}

VariantInfo info(std::string name, std::string summary, std::string teaches, bool waves,
                 bool pack) {
  auto params = commonParams();
  if (waves) params.push_back(wavesParam());
  if (pack) {
    for (auto& spec : params)
      if (spec.name == "block_size") spec = autoBlockParam(spec);
    params.push_back(packParam());
    params.push_back(unrollParam());
  }
  return {"elementwise",      std::move(name),   std::move(summary),
          std::move(teaches), std::move(params), "n"};
}

}  // namespace

void registerElementwiseFamily(Registry& registry) {
  registry.addFamily("elementwise", "activations, products and casts at the bandwidth limit");
  registry.addVariant(std::make_unique<ElementwiseVariant>(
      ElementwiseWalk::Naive,
      info("naive", "one element per thread, one thread per element",
           "The first kernel everyone writes: a thread per element and a grid as large as the "
           "data. It is simple and close to fast, but launches millions of short-lived blocks and "
           "moves 4 bytes or less per access.",
           false, false)));
  registry.addVariant(std::make_unique<ElementwiseVariant>(
      ElementwiseWalk::GridStride,
      info("grid_stride", "a grid sized in waves, one element per loop step",
           "A grid of a few waves of the device walks the data in a grid-stride loop: every "
           "access of a warp stays coalesced, and the grid no longer grows with the data. Sweep "
           "waves to see how many blocks the memory system needs.",
           true, false)));
  registry.addVariant(std::make_unique<ElementwiseVariant>(
      ElementwiseWalk::Packed,
      info("packed", "OneFlow's Pack: up to 16 bytes per access",
           "Elements travel in packs of up to 16 bytes (4 floats, 8 halves), one load and one "
           "store instruction each, with the leftover elements done one by one. A pointer that is "
           "not aligned to the pack falls back to the widest pack it allows: sweep offset to see "
           "what misalignment costs. Sweep unroll to see what several loads in flight per "
           "thread are worth.",
           true, true)));
  VariantInfo pairs =
      info("packed_half2", "packs with math on half2/bfloat162 pairs (Apply2)",
           "For 16-bit data the math runs on pairs: one instruction for two elements where the "
           "hardware has it (max, mul, fma). Where the math goes through float (erf, tanh, exp) "
           "the pairs only convert, as packed's code already does. Compare the instruction count "
           "with packed at the same pack size: it drops for relu, mul and muladd; the time drops "
           "only where issuing is the limit.",
           true, true);
  for (auto& spec : pairs.params)
    if (spec.name == "dtype") spec.defaultValue = "f16";  // pairs need 16-bit data
  registry.addVariant(
      std::make_unique<ElementwiseVariant>(ElementwiseWalk::PackedPairs, std::move(pairs)));
}

}  // namespace kwb
