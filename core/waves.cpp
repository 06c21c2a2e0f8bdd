#include "core/waves.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/format.h"

namespace kwb {
namespace {

std::string suffix(std::size_t k, std::size_t count) {
  return count == 1 ? std::string() : "_" + std::to_string(k + 1);
}

std::optional<long long> number(const ParamSet& derived, const std::string& name) {
  if (!derived.has(name)) return std::nullopt;
  const std::string text = derived.get(name);
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str()) return std::nullopt;
  return value;
}

}  // namespace

double WaveLaunch::waves() const {
  return perWave() > 0 ? static_cast<double>(grid) / static_cast<double>(perWave()) : 0;
}

int WaveLaunch::fullWaves() const {
  return perWave() > 0 ? static_cast<int>(grid / perWave()) : 0;
}

long long WaveLaunch::tailBlocks() const {
  return perWave() > 0 ? grid % perWave() : 0;
}

double WaveLaunch::tailCost() const {
  const double w = waves();
  return w > 0 ? 1 - w / std::ceil(w) : 0;
}

int WaveLaunch::blocksAt(int sm, int wave) const {
  // Round r gives SM s block r x smCount + s; a wave is residentPerSm rounds.
  int blocks = 0;
  for (long long r = static_cast<long long>(wave) * residentPerSm;
       r < static_cast<long long>(wave + 1) * residentPerSm; ++r)
    if (r * smCount + sm < grid) ++blocks;
  return blocks;
}

std::vector<WaveLaunch> waveLaunches(const RunResult& run, int smCount) {
  std::vector<WaveLaunch> out;
  if (smCount <= 0) return out;
  // Up to 8 kernels a call: the suffix of the first is empty when it is the only one.
  const bool several = run.derived.has("resident_blocks_1") || run.derived.has("resident_blocks_2");
  for (std::size_t k = 0; k < 8; ++k) {
    const std::string s = several ? "_" + std::to_string(k + 1) : std::string();
    const auto grid = number(run.derived, "grid" + s);
    const auto block = number(run.derived, "block" + s);
    const auto resident = number(run.derived, "resident_blocks" + s);
    if (!grid || !block || !resident || *resident <= 0) break;
    WaveLaunch launch;
    launch.grid = *grid;
    launch.block = static_cast<int>(*block);
    launch.residentPerSm = static_cast<int>(*resident);
    launch.limiter = run.derived.has("limiter" + s) ? run.derived.get("limiter" + s) : "";
    launch.smCount = smCount;
    out.push_back(launch);
    if (!several) break;
  }
  return out;
}

std::optional<WaveLaunch> widestLaunch(const RunResult& run, int smCount) {
  const auto launches = waveLaunches(run, smCount);
  if (launches.empty()) return std::nullopt;
  return *std::max_element(launches.begin(), launches.end(),
                           [](const auto& a, const auto& b) { return a.grid < b.grid; });
}

void recordWaves(ParamSet& derived, const std::vector<WaveLaunch>& launches) {
  for (std::size_t k = 0; k < launches.size(); ++k) {
    const WaveLaunch& l = launches[k];
    const std::string s = suffix(k, launches.size());
    // A built-in family names its main kernel's grid already; a second launch adds its own.
    if (!derived.has("grid" + s)) derived.set("grid" + s, std::to_string(l.grid));
    if (!derived.has("block" + s)) derived.set("block" + s, std::to_string(l.block));
    derived.set("resident_blocks" + s, std::to_string(l.residentPerSm));
    derived.set("limiter" + s, l.limiter);
    derived.set("wave_count" + s, formatted("%.2f", l.waves()));
  }
}

std::string wavesSentence(const WaveLaunch& l, double seconds) {
  const double w = l.waves();
  std::string text = formatted(
      "%lld blocks of %d threads, %d per SM at once (%s limit it): %.2f waves over %d SMs", l.grid,
      l.block, l.residentPerSm, l.limiter.empty() ? "?" : l.limiter.c_str(), w, l.smCount);
  if (w < 1)
    text += formatted("; one partial wave: %.0f %% of the block slots idle", 100 * (1 - w));
  else if (l.tailBlocks() > 0)
    text +=
        formatted("; the last wave holds %lld blocks (%.0f %% of a wave)", l.tailBlocks(),
                  100.0 * static_cast<double>(l.tailBlocks()) / static_cast<double>(l.perWave()));
  else
    text += "; whole waves, no tail";
  const double cost = l.tailCost();
  if (cost > 0.005)
    text += formatted(". Predicted cost of the idle slots: %.0f %% of the time", 100 * cost) +
            (seconds > 0 ? " (" + formatSeconds(cost * seconds) + ")" : std::string()) +
            ", if every block takes as long";
  return text;
}

double WaveModel::predict(const RunResult& run, const WaveLaunch& l) const {
  const double w = l.waves();
  if (w <= 0) return 0;
  return overhead + secondsPerByte * static_cast<double>(run.bytes) * std::ceil(w) / w;
}

std::optional<WaveModel> fitWaves(const std::vector<RunResult>& runs, int smCount) {
  std::vector<double> xs, ys;
  for (const RunResult& run : runs) {
    const auto launch = widestLaunch(run, smCount);
    if (!launch || run.stats.median <= 0 || run.bytes == 0 || launch->waves() <= 0) continue;
    const double w = launch->waves();
    xs.push_back(static_cast<double>(run.bytes) * std::ceil(w) / w);
    ys.push_back(run.stats.median);
  }
  if (xs.size() < 2) return std::nullopt;
  const double n = static_cast<double>(xs.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    sx += xs[i];
    sy += ys[i];
    sxx += xs[i] * xs[i];
    sxy += xs[i] * ys[i];
  }
  const double det = n * sxx - sx * sx;
  WaveModel model;
  if (std::abs(det) <= 1e-12 * n * sxx) {
    // Every run has the same stretched bytes: a time per byte through the origin.
    model.secondsPerByte = sxx > 0 ? sxy / sxx : 0;
  } else {
    model.secondsPerByte = (n * sxy - sx * sy) / det;
    model.overhead = (sy - model.secondsPerByte * sx) / n;
  }
  if (model.secondsPerByte <= 0) return std::nullopt;
  return model;
}

}  // namespace kwb
