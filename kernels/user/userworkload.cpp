#include "kernels/user/userworkload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/error.h"
#include "kernels/cudacheck.h"

namespace kwb {
namespace {

constexpr double kMostElements = 9.007199254740992e15;  // 2^53: exact in an expression

// The parameter to name where an expression's value is refused: the first one it uses.
std::string blame(const SpecExpression& expression, const KernelSpec& spec, const char* fallback) {
  for (const auto& name : expression.uses())
    if (const KernelParam* p = paramOf(spec, name)) return p->spec.name;
  return fallback;
}

// A whole number from an expression, within [least, most]; Error(Param) naming the field.
std::int64_t wholeValue(const SpecExpression& expression,
                        const std::map<std::string, double>& values, const KernelSpec& spec,
                        const std::string& field, double least, double most) {
  const double value = expression.evaluate(values);
  if (value != std::floor(value) || value < least || value > most) {
    char text[160];
    std::snprintf(text, sizeof text, " is %.17g here; it must be a whole number in %.0f..%.0f",
                  value, least, most);
    throw paramError(blame(expression, spec, "params"),
                     field + " '" + expression.text() + "'" + text);
  }
  return static_cast<std::int64_t>(value);
}

// Device memory for a reference run, freed when it goes.
class Scratch {
 public:
  explicit Scratch(std::size_t bytes) {
    KWB_CUDA_CHECK(cudaMalloc(&data_, std::max<std::size_t>(bytes, 1)));
  }
  ~Scratch() { cudaFree(data_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
};

}  // namespace

UserWorkload::UserWorkload(std::shared_ptr<const KernelFile> file, const ParamSet& params,
                           const DeviceInfo& device, ModuleUse module,
                           std::unique_ptr<Workload> builtIn)
    : file_(std::move(file)),
      device_(device),
      module_(std::move(module.module)),
      builtIn_(std::move(builtIn)) {
  const KernelSpec& spec = file_->spec;
  const auto values = expressionValues(spec, params, &device_);

  // The buffers: the family's where the file implements one (the spec's must agree with them),
  // else the spec's, with the initial values of in-out buffers kept apart for the reference.
  if (builtIn_) buffers_ = builtIn_->buffers();
  const auto familyBuffers = static_cast<std::ptrdiff_t>(buffers_.size());
  fills_.assign(buffers_.size(), BufferFill::Uniform);
  std::vector<int> index;  // the spec's buffer i is buffers()[index[i]]
  std::uint64_t declaredBytes = 0;
  for (std::size_t i = 0; i < spec.buffers.size(); ++i) {
    const KernelBuffer& b = spec.buffers[i];
    const std::string field = "buffers[" + std::to_string(i) + "] (" + b.name + ")";
    const auto count =
        static_cast<std::size_t>(wholeValue(b.count, values, spec, b.where, 0, kMostElements));
    const std::uint64_t bytes = count * sizeOf(b.dtype);
    declaredBytes += b.role == BufferRole::InOut ? 2 * bytes : bytes;
    const auto family = buffers_.begin() + familyBuffers;
    const auto same = std::find_if(buffers_.begin(), family,
                                   [&](const BufferSpec& s) { return s.name == b.name; });
    if (same != family) {
      const bool counts = count <= same->count && count + same->padding >= same->count;
      if (same->dtype != b.dtype || !counts || same->output != (b.role != BufferRole::In))
        throw Error(ErrorKind::Usage,
                    file_->path + ": " + field + ": " + spec.implements + "'s " + b.name + " is " +
                        (same->output ? "an out" : "an in") + " buffer of " +
                        std::to_string(same->count) + " " + std::string(toString(same->dtype)) +
                        (same->padding > 0 ? " (" + std::to_string(same->count - same->padding) +
                                                 " without the padding its kernels may read)"
                                           : "") +
                        " for this problem; the spec says " + std::to_string(count) + " " +
                        std::string(toString(b.dtype)),
                    "buffers");
      index.push_back(static_cast<int>(same - buffers_.begin()));
      continue;
    }
    // Beside a family's buffers, the file's own are working memory, zeroed once: said so.
    const bool scratch = builtIn_ != nullptr;
    if (scratch && b.fill != BufferFill::Zeros) {
      std::string theirs;
      for (auto it = buffers_.begin(); it != family; ++it)
        if (!it->scratch)
          theirs += (theirs.empty() ? "" : ", ") + it->name + (it->output ? " (out)" : " (in)");
      throw Error(ErrorKind::Usage,
                  file_->path + ": " + field + ": '" + b.name + "' is not a buffer of " +
                      spec.implements + "; its buffers are " + theirs +
                      ". A buffer of the file's own beside them is working memory: give it "
                      "fill = \"zeros\"",
                  "buffers");
    }
    buffers_.push_back({b.name, b.dtype, count, !scratch && b.role != BufferRole::In, scratch});
    fills_.push_back(b.fill);
    index.push_back(static_cast<int>(buffers_.size() - 1));
    if (!scratch && b.role == BufferRole::Out && b.fill == BufferFill::Zeros)
      zeroedEachCall_.push_back(index.back());
  }
  if (!builtIn_)
    for (std::size_t i = 0; i < spec.buffers.size(); ++i) {
      if (spec.buffers[i].role != BufferRole::InOut) continue;
      const BufferSpec working = buffers_[static_cast<std::size_t>(index[i])];
      buffers_.push_back({working.name + " (initial)", working.dtype, working.count, false});
      fills_.push_back(spec.buffers[i].fill);
      initialCopies_.emplace_back(static_cast<int>(buffers_.size() - 1), index[i]);
    }

  for (std::size_t k = 0; k < spec.launches.size(); ++k)
    launches_.push_back(
        prepareLaunch(spec.launches[k], "launch[" + std::to_string(k) + "]", values, index));
  if (spec.reference) reference_ = prepareLaunch(*spec.reference, "reference", values, index);

  if (spec.bytes)
    bytes_ = static_cast<std::uint64_t>(
        wholeValue(*spec.bytes, values, spec, "bytes", 0, kMostElements));
  else
    bytes_ = builtIn_ ? builtIn_->bytesMoved() : declaredBytes;
  if (spec.flops)
    flops_ = static_cast<double>(wholeValue(*spec.flops, values, spec, "flops", 0, 1e18));
  else if (builtIn_)
    flops_ = builtIn_->flops();

  for (std::size_t k = 0; k < launches_.size(); ++k) {
    const std::string suffix = launches_.size() == 1 ? "" : "_" + std::to_string(k + 1);
    const Launch& l = launches_[k];
    derived_.set("grid" + suffix, std::to_string(l.grid.x));
    derived_.set("block" + suffix, std::to_string(l.block.x));
    derived_.set("registers" + suffix, std::to_string(l.registers));
    if (l.sharedBytes) derived_.set("shared_bytes" + suffix, std::to_string(l.sharedBytes));
  }
  char compile[48] = "cached";
  if (module.compileSeconds)
    std::snprintf(compile, sizeof compile, "compiled in %.0f ms", *module.compileSeconds * 1e3);
  derived_.set("module", compile);
}

UserWorkload::Launch UserWorkload::prepareLaunch(const KernelLaunchSpec& spec,
                                                 const std::string& where,
                                                 const std::map<std::string, double>& values,
                                                 const std::vector<int>& bufferIndex) {
  const KernelSpec& file = file_->spec;
  const std::string& path = file_->path;
  ParamSet templateValues;
  for (const auto& p : file.params)
    if (const auto it = values.find(p.spec.name); it != values.end())
      templateValues.set(p.spec.name, std::to_string(static_cast<std::int64_t>(it->second)));
  Launch launch;
  const std::string name = nameExpression(spec, templateValues);
  const auto found = module_->kernels.find(name);
  if (found == module_->kernels.end())
    throw Error(ErrorKind::Internal, path + ": " + where + ": " + name + " was not compiled");
  launch.kernel = found->second;
  const void* kernel = reinterpret_cast<const void*>(launch.kernel);

  cudaFuncAttributes attributes{};
  KWB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  launch.registers = attributes.numRegs;
  launch.grid = dim3(
      static_cast<unsigned>(wholeValue(spec.grid, values, file, where + ".grid", 1, 2147483647.0)));
  const auto block = wholeValue(spec.block, values, file, where + ".block", 1, 1024);
  if (block > attributes.maxThreadsPerBlock)
    throw paramError(blame(spec.block, file, "block"),
                     where + ".block '" + spec.block.text() + "' is " + std::to_string(block) +
                         " threads; " + name + " uses " + std::to_string(attributes.numRegs) +
                         " registers per thread, which allow " +
                         std::to_string(attributes.maxThreadsPerBlock) + " at most");
  launch.block = dim3(static_cast<unsigned>(block));
  if (spec.sharedBytes) {
    int optIn = 0;
    KWB_CUDA_CHECK(
        cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_.ordinal));
    const double most = optIn - static_cast<double>(attributes.sharedSizeBytes);
    launch.sharedBytes = static_cast<std::size_t>(
        wholeValue(*spec.sharedBytes, values, file, where + ".shared_bytes", 0, most));
    if (launch.sharedBytes > 48 * 1024)
      KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(launch.sharedBytes)));
  }

  // Each argument goes in as many bytes as the kernel's parameter has. The runtime tells the
  // number of parameters only by refusing the index past the last: one refused call a launch,
  // which compute-sanitizer lists among API errors unless told not to (--report-api-errors no).
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0;; ++i) {
    std::size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(kernel, i, &offset, &size) != cudaSuccess) {
      cudaGetLastError();  // past the last parameter: nothing to keep
      break;
    }
    sizes.push_back(size);
  }
  if (sizes.size() != spec.args.size() || sizes.size() > kMaxArgs)
    throw Error(ErrorKind::Usage,
                path + ": " + where + ".args: " + name + " takes " + std::to_string(sizes.size()) +
                    " parameters; args gives " + std::to_string(spec.args.size()),
                where + ".args");
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const LaunchArg& arg = spec.args[i];
    Arg out;
    out.size = sizes[i];
    if (!arg.value) {
      const auto b = std::find_if(file.buffers.begin(), file.buffers.end(),
                                  [&](const KernelBuffer& k) { return k.name == arg.text; });
      out.buffer = bufferIndex[static_cast<std::size_t>(b - file.buffers.begin())];
      if (out.size != sizeof(void*))
        throw Error(ErrorKind::Usage,
                    path + ": " + where + ".args: '" + arg.text + "' is a buffer, but parameter " +
                        std::to_string(i + 1) + " of " + name + " is not a pointer",
                    where + ".args");
    } else if (out.size == 4 || out.size == 8) {
      const double most = out.size == 4 ? 2147483647.0 : kMostElements;
      out.value =
          wholeValue(*arg.value, values, file, where + ".args '" + arg.text + "'", -most, most);
    } else {
      throw Error(ErrorKind::Usage,
                  path + ": " + where + ".args: parameter " + std::to_string(i + 1) + " of " +
                      name + " has " + std::to_string(out.size) +
                      " bytes; a value goes in as a 4- or 8-byte integer",
                  where + ".args");
    }
    launch.args.push_back(out);
  }
  return launch;
}

double UserWorkload::tolerance() const {
  return builtIn_ ? builtIn_->tolerance() : file_->spec.tolerance;
}

std::optional<HostArray> UserWorkload::generateInput(std::size_t index, std::uint64_t seed) const {
  if (builtIn_ && index < builtIn_->buffers().size()) return builtIn_->generateInput(index, seed);
  const BufferSpec& spec = buffers_[index];
  switch (fills_[index]) {
    case BufferFill::Uniform: return std::nullopt;  // the seeded fill every family uses
    case BufferFill::Zeros: {
      HostArray zeros(spec.dtype, spec.count);
      std::memset(zeros.data(), 0, zeros.byteSize());
      return zeros;
    }
    case BufferFill::Iota: {
      HostArray iota(spec.dtype, spec.count);
      for (std::size_t i = 0; i < spec.count; ++i) iota.set(i, static_cast<double>(i));
      return iota;
    }
    case BufferFill::Normal: {
      HostArray normal(spec.dtype, spec.count);
      std::mt19937_64 engine(seed);
      std::normal_distribution<double> draw;
      for (std::size_t i = 0; i < spec.count; ++i) normal.set(i, draw(engine));
      return normal;
    }
  }
  return std::nullopt;
}

void UserWorkload::launch(const Launch& l, std::span<void* const> buffers,
                          cudaStream_t stream) const {
  // cudaLaunchKernel reads each argument through a pointer to a value of the parameter's size.
  std::int64_t wide[kMaxArgs];
  std::int32_t narrow[kMaxArgs];
  void* args[kMaxArgs];
  for (std::size_t i = 0; i < l.args.size(); ++i) {
    const Arg& a = l.args[i];
    if (a.buffer >= 0) {
      args[i] = const_cast<void**>(&buffers[static_cast<std::size_t>(a.buffer)]);
    } else if (a.size == 4) {
      narrow[i] = static_cast<std::int32_t>(a.value);
      args[i] = &narrow[i];
    } else {
      wide[i] = a.value;
      args[i] = &wide[i];
    }
  }
  KWB_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(l.kernel), l.grid, l.block, args,
                                  l.sharedBytes, stream));
}

void UserWorkload::enqueue(std::span<void* const> buffers, cudaStream_t stream) const {
  for (int b : zeroedEachCall_)
    KWB_CUDA_CHECK(cudaMemsetAsync(buffers[static_cast<std::size_t>(b)], 0, bytesOf(b), stream));
  for (const Launch& l : launches_) launch(l, buffers, stream);
}

std::size_t UserWorkload::bytesOf(int buffer) const {
  const BufferSpec& spec = buffers_[static_cast<std::size_t>(buffer)];
  return spec.count * sizeOf(spec.dtype);
}

void UserWorkload::beforeCheckedRun(std::span<void* const> buffers, cudaStream_t stream) const {
  for (const auto& [initial, working] : initialCopies_)
    KWB_CUDA_CHECK(cudaMemcpyAsync(buffers[static_cast<std::size_t>(working)],
                                   buffers[static_cast<std::size_t>(initial)], bytesOf(working),
                                   cudaMemcpyDeviceToDevice, stream));
  if (!reference_) return;

  // The reference kernel on the same inputs, into outputs of its own: in-out ones start from
  // their initial values, zeroed ones from zeros, the rest poisoned as the runner poisons.
  std::vector<void*> pointers(buffers.begin(), buffers.end());
  std::vector<std::unique_ptr<Scratch>> own;
  for (std::size_t b = 0; b < buffers_.size(); ++b) {
    if (!buffers_[b].output) continue;
    const int i = static_cast<int>(b);
    own.push_back(std::make_unique<Scratch>(bytesOf(i)));
    pointers[b] = own.back()->data();
    const auto initial = std::find_if(initialCopies_.begin(), initialCopies_.end(),
                                      [&](const auto& c) { return c.second == i; });
    const bool zeroed =
        std::find(zeroedEachCall_.begin(), zeroedEachCall_.end(), i) != zeroedEachCall_.end();
    if (initial != initialCopies_.end())
      KWB_CUDA_CHECK(cudaMemcpyAsync(pointers[b], buffers[static_cast<std::size_t>(initial->first)],
                                     bytesOf(i), cudaMemcpyDeviceToDevice, stream));
    else
      KWB_CUDA_CHECK(cudaMemsetAsync(pointers[b], zeroed ? 0 : 0xff, bytesOf(i), stream));
  }
  launch(*reference_, pointers, stream);
  referenceOutputs_.clear();
  for (std::size_t b = 0; b < buffers_.size(); ++b) {
    if (!buffers_[b].output) continue;
    HostArray& host = referenceOutputs_.emplace_back(buffers_[b].dtype, buffers_[b].count);
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(host.data(), pointers[b], host.byteSize(), cudaMemcpyDeviceToHost, stream));
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void UserWorkload::reference(std::span<const HostArray> inputs, std::size_t output,
                             std::size_t begin, std::span<double> out) const {
  if (builtIn_) return builtIn_->reference(inputs, output, begin, out);
  const HostArray& expected = referenceOutputs_.at(output);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = expected.at(begin + i);
}

}  // namespace kwb
