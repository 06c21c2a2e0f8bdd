#include "kernels/permute/packedtiling.h"

#include <algorithm>
#include <vector>

namespace kwb::permute {
namespace {

// A run from an arbitrary start fetches on average a sector's bytes, less one, more than it
// needs; a tile costs its barriers and offsets about as much as moving kTileOverhead elements.
constexpr double kSectorBytes = 32;
constexpr double kTileOverhead = 256;

double runEfficiency(std::int64_t runBytes) {
  const double r = static_cast<double>(runBytes);
  return r / (r + kSectorBytes - 1);
}

// Dimensions innermost first in the source and in the destination, with their strides.
struct Orders {
  int rank = 0;
  int src[kMaxDims] = {}, dst[kMaxDims] = {};
  DimensionStrides stride;
};

Orders ordersOf(const Permutation& s) {
  Orders o;
  o.rank = static_cast<int>(s.shape.size());
  o.stride = stridesOf(s);
  for (int k = 0; k < o.rank; ++k) {
    o.src[k] = o.rank - 1 - k;
    o.dst[k] = s.perm[static_cast<std::size_t>(o.rank - 1 - k)];
  }
  return o;
}

// One candidate tile: which dimensions it holds, and the one cut into chunks of `chunk`.
struct Candidate {
  unsigned held = 0;  // bit d: dimension d
  int split = -1;     // a dimension, or -1
  std::int64_t chunk = 1, chunks = 1, volume = 1;
  std::int64_t runIn = 1, runOut = 1;
  double score = 0;
};

// Elements a tile reads (or writes) in one run: its dimensions in that side's order, as far as
// each is held whole.
std::int64_t runAlong(const int* order, int rank, const Candidate& c, const Permutation& s) {
  std::int64_t run = 1;
  for (int k = 0; k < rank; ++k) {
    const int d = order[k];
    if (!(c.held >> d & 1)) break;
    if (d == c.split) return run * c.chunk;
    run *= s.shape[static_cast<std::size_t>(d)];
  }
  return run;
}

void scoreOf(Candidate& c, const Orders& o, const Permutation& s, int bytes) {
  c.runIn = runAlong(o.src, o.rank, c, s);
  c.runOut = runAlong(o.dst, o.rank, c, s);
  const double in = runEfficiency(c.runIn * bytes), out = runEfficiency(c.runOut * bytes);
  const double volume = static_cast<double>(c.volume);
  const double chunkFill = c.split < 0
                               ? 1.0
                               : static_cast<double>(s.shape[static_cast<std::size_t>(c.split)]) /
                                     static_cast<double>(c.chunks * c.chunk);
  c.score = 2 / (1 / in + 1 / out) * volume / (volume + kTileOverhead) * chunkFill;
}

// Element p of tile t along `order` (tile dimensions innermost first on that side).
PackedElement elementOf(const PackedTiling& g, std::int64_t tile, int p, const int* order,
                        bool src) {
  PackedElement e;
  if (p >= g.volume) return e;
  const std::int64_t chunk = tile % g.chunks, b = tile / g.chunks;
  std::int64_t offset = combinedOffset(g.batch, g.batchRank, b, src);
  int rest = p;
  for (int m = 0; m < g.rank; ++m) {
    const PackedTiling::Axis& a = g.axis[order[m]];
    std::int64_t digit = rest % a.extent;
    rest /= a.extent;
    e.shared += static_cast<int>(digit) * a.sharedStride;
    if (order[m] == g.split) {
      digit += chunk * a.extent;
      if (digit >= a.size) return e;
    }
    offset += digit * (src ? a.srcStride : a.dstStride);
  }
  e.inside = true;
  e.offset = offset;
  return e;
}

// Whether words of e elements along one side of a tile lie whole in its runs, start on a
// multiple of e elements and are all in or all out of the tile.
bool wordsWhole(const PackedTiling& g, std::int64_t tile, int e, bool load) {
  const auto at = [&](int p) { return load ? packedLoad(g, tile, p) : packedStore(g, tile, p); };
  for (int p = 0; p < g.volume; p += e) {
    const PackedElement first = at(p);
    if (first.inside && first.offset % e != 0) return false;
    for (int i = 1; i < e; ++i) {
      const PackedElement next = at(p + i);
      if (next.inside != first.inside || (next.inside && next.offset != first.offset + i))
        return false;
    }
  }
  return true;
}

bool wordsFit(const PackedTiling& g, int e) {
  if (g.volume % e != 0) return false;
  for (int k = 0; k < g.batchRank; ++k)
    if (g.batch[k].srcStride % e != 0 || g.batch[k].dstStride % e != 0) return false;
  // The first chunk, the next (the chunks' stride) and the last, which may hold less.
  for (const std::int64_t tile :
       {std::int64_t{0}, std::min<std::int64_t>(1, g.chunks - 1), g.chunks - 1})
    if (!wordsWhole(g, tile, e, true) || !wordsWhole(g, tile, e, false)) return false;
  return true;
}

// Shared words a bank serves in the first warps' gathers of words of e elements, on average:
// the tile unpadded in the source's order, destination position q at its index there.
double gatherBankWays(const PackedTiling& g, int elementBytes, int wordBytes, bool swizzle) {
  int linear[kMaxDims], stride = 1;
  for (int k = 0; k < g.rank; ++k) {
    linear[k] = stride;
    stride *= g.axis[k].extent;
  }
  const auto address = [&](int q) {
    int index = 0;
    for (int m = 0; m < g.rank; ++m) {
      const int extent = g.axis[g.dstOrder[m]].extent;
      index += q % extent * linear[g.dstOrder[m]];
      q /= extent;
    }
    return packedWordsAddress(index * elementBytes, wordBytes, swizzle);
  };
  const int e = wordBytes / elementBytes, words = g.volume / e;
  double total = 0;
  int gathers = 0;
  for (int warp = 0; warp < std::min(4, (words + 31) / 32); ++warp)
    for (int i = 0; i < e; ++i) {
      int banks[32][32], used[32] = {};
      int ways = 0;
      for (int lane = 0; lane < 32 && warp * 32 + lane < words; ++lane) {
        const int word = address((warp * 32 + lane) * e + i) / 4, bank = word % 32;
        if (std::find(banks[bank], banks[bank] + used[bank], word) == banks[bank] + used[bank])
          banks[bank][used[bank]++] = word;
        ways = std::max(ways, used[bank]);
      }
      total += ways;
      ++gathers;
    }
  return total / gathers;
}

}  // namespace

PackedWords packedWords(const PackedTiling& g, int elementBytes, std::int64_t sourceOffsetBytes) {
  // A word's gather costs its shared loads, each as many times as its bank's words, and its
  // load, shared store and store shared among its elements.
  PackedWords best;
  double bestCost = 0;
  for (const int bytes : {16, 8, 4}) {
    const int e = bytes / elementBytes;
    if (elementBytes > 4 || e < 2 || sourceOffsetBytes % bytes != 0 || !wordsFit(g, e)) continue;
    for (const bool swizzle : {false, true}) {
      const double ways = gatherBankWays(g, elementBytes, bytes, swizzle);
      const double cost = ways + 3.0 / e;
      if (best.bytes == 0 || cost < bestCost) {
        best = {bytes, swizzle, ways};
        bestCost = cost;
      }
    }
  }
  return best;
}

namespace {

PackedTiling tilingOf(const Candidate& best, const Orders& o, const Permutation& s) {
  PackedTiling g;
  int index[kMaxDims] = {};  // dimension -> tile dimension
  for (int k = 0; k < o.rank; ++k) {
    const int d = o.src[k];
    PackedTiling::Axis axis{s.shape[static_cast<std::size_t>(d)], 1, o.stride.src[d],
                            o.stride.dst[d], 0};
    if (!(best.held >> d & 1)) {
      g.batch[g.batchRank++] = {axis.size, axis.srcStride, axis.dstStride};
      g.batchExtent *= axis.size;
      continue;
    }
    axis.extent = static_cast<int>(d == best.split ? best.chunk : axis.size);
    if (d == best.split) g.split = g.rank;
    index[d] = g.rank;
    g.axis[g.rank++] = axis;
  }
  int m = 0;
  for (int k = 0; k < o.rank; ++k)
    if (best.held >> o.dst[k] & 1) g.dstOrder[m++] = index[o.dst[k]];
  // The tile lies in shared memory in the source's order; the destination's innermost dimension
  // gets an odd stride there, so that the lanes of a store's warp fall in different banks.
  int stride = 1;
  for (int k = 0; k < g.rank; ++k) {
    if (k > 0 && k == g.dstOrder[0] && stride % 2 == 0) ++stride;
    g.axis[k].sharedStride = stride;
    stride *= g.axis[k].extent;
  }
  g.sharedElements = stride;
  g.chunks = best.chunks;
  g.volume = static_cast<int>(best.volume);
  g.runIn = best.runIn;
  g.runOut = best.runOut;
  return g;
}

// How much faster tiles move in words than in elements, by element size: with 4 tiles ahead,
// bytes and halves moved 1.34 to 1.43 and 1.13 to 1.26 times as fast (H100; bytes a further
// 1.11 to 1.13x 8 tiles ahead), 4-byte elements 1.02 to 1.23x.
double wordsGain(int bytes) {
  return bytes == 1 ? 1.35 : bytes == 2 ? 1.2 : 1.0;
}

}  // namespace

std::optional<PackedTiling> packedTiling(const Permutation& s, int bytes, int maxVolume) {
  const Orders o = ordersOf(s);
  std::vector<Candidate> candidates;
  const auto consider = [&](Candidate c) {
    scoreOf(c, o, s, bytes);
    candidates.push_back(c);
  };
  // Every union of the source's innermost a dimensions and the destination's innermost b, whole
  // where it fits, else with the outermost of either side's part cut into as few chunks as fit,
  // of equal size, or into chunks of a multiple of 2, 4, 8 or 16 elements, which may let runs
  // be whole words.
  for (int a = 1; a <= o.rank; ++a)
    for (int b = 1; b <= o.rank; ++b) {
      Candidate c;
      for (int k = 0; k < a; ++k) c.held |= 1u << o.src[k];
      for (int k = 0; k < b; ++k) c.held |= 1u << o.dst[k];
      for (int d = 0; d < o.rank; ++d)
        if (c.held >> d & 1) c.volume *= s.shape[static_cast<std::size_t>(d)];
      if (c.volume <= maxVolume) consider(c);
      for (const int d : {o.src[a - 1], o.dst[b - 1]}) {
        const std::int64_t size = s.shape[static_cast<std::size_t>(d)];
        const std::int64_t rest = c.volume / size, most = maxVolume / rest;
        if (most < 1 || most >= size) continue;
        Candidate cut = c;
        cut.split = d;
        cut.chunks = (size + most - 1) / most;
        const std::int64_t even = (size + cut.chunks - 1) / cut.chunks;
        for (const std::int64_t multiple : {1, 2, 4, 8, 16}) {
          cut.chunk = even / multiple * multiple;
          if (cut.chunk == 0 || (multiple > 1 && cut.chunk == even)) continue;
          cut.chunks = (size + cut.chunk - 1) / cut.chunk;
          cut.volume = rest * cut.chunk;
          consider(cut);
        }
      }
    }
  if (candidates.empty()) return std::nullopt;
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.score > y.score; });

  // The best by the model of memory accesses, unless a tile that moves in words beats it by the
  // words' gain: the first candidate with words that could.
  PackedTiling best = tilingOf(candidates[0], o, s);
  const double gain = wordsGain(bytes);
  if (gain > 1)
    for (const Candidate& c : candidates) {
      if (c.score * gain <= candidates[0].score) break;
      PackedTiling g = tilingOf(c, o, s);
      if (packedWords(g, bytes, 0).bytes) {
        best = g;
        break;
      }
    }
  return best;
}

std::string PackedTiling::describe() const {
  std::string dims;
  for (int k = rank - 1; k >= 0; --k) {
    const Axis& a = axis[k];
    dims += std::to_string(a.extent);
    if (k == split) dims += "/" + std::to_string(a.size);
    if (k > 0) dims += " x ";
  }
  return "tile " + dims + " | reads " + std::to_string(runIn) + " | writes " +
         std::to_string(runOut);
}

PackedElement packedLoad(const PackedTiling& g, std::int64_t tile, int p) {
  int order[kMaxDims];
  for (int k = 0; k < g.rank; ++k) order[k] = k;
  return elementOf(g, tile, p, order, true);
}

PackedElement packedStore(const PackedTiling& g, std::int64_t tile, int p) {
  return elementOf(g, tile, p, g.dstOrder, false);
}

}  // namespace kwb::permute
