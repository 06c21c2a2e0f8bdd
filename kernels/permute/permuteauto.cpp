// auto's choice among the permute kernels: rules measured on H100 and H200 (docs/PERFORMANCE.md,
// the permute passes), each with the shapes that set its bounds.
#include "kernels/permute/permuteauto.h"

#include <algorithm>

#include "kernels/launchgeometry.h"
#include "kernels/permute/generaltiled.h"
#include "kernels/permute/linetranspose.h"
#include "kernels/permute/narrowtranspose.h"
#include "kernels/permute/packedtiling.h"
#include "kernels/permute/planetranspose.h"
#include "kernels/permute/tiledtranspose.h"

namespace kwb::permute {
namespace {

// General tiles take cells where both groups span at least this many elements (the tiling
// grows each group to 64), else a tile of cells would be mostly empty; cells shifted into place
// where both span kMinShiftedCellGroup or more: they moved 1.16 to 1.61x the best other kernel
// where both groups were 72 or more long and 0.02 to 0.55x where one was 38 or shorter (H200),
// and a transpose of 52-byte rows 1873 GB/s against the tiled kernel's 1186 (H100).
constexpr std::int64_t kMinCellGroup = 64;
constexpr std::int64_t kMinShiftedCellGroup = 48;
// Cells' groups, and those of units of 4 bytes or more, grow past a tile's side until they fill
// this much of the tiles they cover: (87, 6, 64280) reversed in f32 takes out 87 x 6 (0.91 of
// its tiles) where 87 filled 0.68, 1603 -> 1760 GB/s (H100).
constexpr double kMinTileFill = 0.875;
// Cells shifted into place take tensors of this many bytes or more: a tile of them carries 32
// KiB, and fewer than 256 tiles leave most of the block slots idle (2049 x 2049 bytes transposed,
// 153 tiles: 711 GB/s in cells, 817 through the tiled kernel's 64 x 64 tiles; H100).
constexpr std::int64_t kMinShiftedCellsBytes = std::int64_t{8} << 20;
// Below this many elements per plane the narrow kernel's chunks are mostly empty: a batch of
// 2 x 7 matrices moved 75 GB/s through it (f16, H100), and the movement kernel takes them.
constexpr std::int64_t kMinNarrowWide = 1024;
// General tiles whose groups fill less than this of a tile lose to the movement kernel: a
// (2, 471000, 3, 5) tile of 5 x 6 f32 moved 108 GB/s, PyTorch's strided kernel 2262 (H100).
constexpr std::int64_t kMinGeneralTileBytes = 2048;
// General tiles of 2-, 4- and 8-byte elements filled less than this lose to the movement
// kernel where its walk reads the source's sectors again within kNearReuse elements of the
// destination or reads sectors at most kDenseSourceStepBytes apart: (17, 5, 12, 17, 202) with
// (1, 0, 2, 4, 3) in f32, tiles filled 0.42, moved 2686 GB/s through the walk and 1157 through
// tiles; (1000, 40, 26, 16, 2) with (0, 4, 2, 1, 3) in f64, filled 0.63, 3890 against 2271;
// tiles filled 0.7 and more won, or lost by less than 15 % (H200). Halves likewise, but where
// cells start on words: 22 of 24 random cases moved 1.05 to 3.1x ((1000, 21, 12, 518) with (2,
// 0, 3, 1): 1058 -> 1956 GB/s), two lost 9 and 13 %; aligned cells of (4, 3, 7, 80, 1248) with
// (3, 4, 2, 1, 0) moved 2238 against 888 (H100). Where the destination's elements up to the
// walk's return span fewer sectors of the source than elements, the sectors count: (45, 571, 18,
// 24, 3) with (1, 0, 4, 3, 2) in f16 returns after 432 elements that span 81 sectors, and moved
// 2249 GB/s through the walk, 871 through tiles (H100).
constexpr double kMinWalkTileFill = 0.7;
constexpr std::int64_t kNearReuse = 192;
constexpr std::int64_t kDenseSourceStepBytes = 16;
// General tiles write a column of the destination's innermost group at a time. Where that group
// is this many bytes or fewer and the destination then runs along a dimension the source holds
// at most this many bytes apart, the movement kernel's walk in destination order reads the
// source in runs and writes whole rows instead: (78, 96, 3, 5974) with (1, 0, 3, 2) moved 1373
// GB/s through it in u8, 598 through tiles; (5, 23310, 3, 96, 3) with (2, 1, 4, 3, 0) in f16
// 2091 against 643 (H100).
constexpr std::int64_t kShortColumnBytes = 16;
// Bytes move in words shifted into place where a column holds two words or more; in shorter
// columns, single bytes, whose stores of neighbouring columns meet in the same sectors: (5,
// 273913, 49) reversed moved 506 GB/s in single bytes, 232 in shifted words (H100). Halves stay
// single where rows start on no word: shifted words moved them at 0.70 to 1.04 of single halves.
constexpr std::int64_t kMinShiftedColumn = 8;
// Where the narrow kernel takes a transpose by the planes' whole vectors (the widest that divides
// a plane and the source's start): planes to channels last where such a vector holds 4 elements
// or more, else the movement kernel's walk (f32 planes of an odd width, in single elements: 2363
// GB/s against 4021 through the walk; f16 in pairs: 2246 against 3154; u8 in 4 bytes, 2090
// against 2041; H200). Channels last to planes where it holds 2 elements or more or an 8-byte
// one; in single smaller elements, general tiles take 8 channels or more in words or wide
// elements (f32, 8: 2879 against 3125), and the walk source rows of 8 bytes or fewer (u8, 2
// channels: 985 against 2233; f16, 5: 1744 against 1453), f32 staying narrow (H200).
constexpr int kMinPlanarNarrowElements = 4;
constexpr int kMinInterleavedNarrowElements = 2;
constexpr std::int64_t kMaxWalkedRowBytes = 8;
// Where the planes' whole vectors are narrower, the narrow kernel shifts 16-byte ones into place
// where its chunks fill this many waves of the device's block slots: planes to channels last of
// an odd width, 64 MiB and more, moved 1.0 to 2.3x faster than through the walk or tiles (19 x
// 14128181 u8: 2794 GB/s against 1412 through the walk; 5 x 33 x 406721 u8 2608 against 1136; 56
// x 1198373 f32 2867 against the tiles' 2343; 3 x 11184810 f32 3067 against 3069), but smaller
// ones that filled a wave or less lost (24 x 174762 f32, 16 MiB, one wave: 2444 against 2595; 5 x
// 37 x 5667 f32, 4 MiB: 1260 against 1417). Channels last to 32 to 64 planes likewise for bytes
// and halves where plain tiles would take them (2033103 x 33 u8: 1934 against 615; 1677721 x 40
// f16: 2044 against 1427), not where shifted cells would (4194303 x 64 u8: 1196 against 2132)
// nor for wider elements (1398101 x 48 f32: 2230 against the tiles' 2692; H100). From channels
// last to fewer planes the general tiles it replaces were faster at 16 planes (2097154 x 16 f16:
// 2567 against 2466; 4194305 x 16 u8: 1651 against 1532; H100) but not at 19 (14128181 x 19 u8:
// 1108 against 2514; H200) nor 8 of floats (8388609 x 8 f32: 2832 against 2932; H100).
constexpr double kMinShiftedNarrowWaves = 2;
// A short side of 32 to kMaxNarrow also goes through the narrow kernel where its planes are whole
// 16-byte vectors of 2 bytes or wider, rather than through tiles: (48, 1398100) f32 moved 3914
// GB/s through it and 2607 through the tiled kernel, 32 halves 3603 against tiled_wide's 2322,
// 40 doubles 3983 against 3168; in 8-byte vectors it lost (f64, 64 channels to planes: 2861
// against 3616), and bytes went both ways (48 of them, 2372 against 2148 and 2454 against 2651;
// H200, H100 for bytes).
// Planes of 32 up to this many to channels last whose planes take whole vectors of one element
// and whose chunks do not fill the device go through the movement kernel's walk, as shorter ones
// do, rather than through tiles: batches of 5 transposes of 33, 37, 40 and 47 planes of an odd
// width (2231 to 406721 elements), every element size, 4 and 64 MiB, moved 1.01 to 1.88x through
// the walk (40 planes of f32, 64 MiB: 2116 -> 2443 GB/s; 33 of u8: 604 -> 1135); channels last
// to planes lost through it (0.40 to 0.97, but for 33 of u8 at 4 MiB) and keep tiles (H100).
// Planes under kMinNarrowWide elements wide were not measured and keep tiles.
constexpr std::int64_t kMaxWalkedPlanes = 47;

}  // namespace

std::optional<BatchTranspose> asBatchTranspose(const Permutation& s) {
  if (s.shape.size() == 2 && s.perm == std::vector<int>{1, 0})
    return BatchTranspose{1, s.shape[0], s.shape[1]};
  if (s.shape.size() == 3 && s.perm == std::vector<int>{0, 2, 1})
    return BatchTranspose{s.shape[0], s.shape[1], s.shape[2]};
  return std::nullopt;
}

std::optional<ReorderedTranspose> asReorderedTranspose(const Permutation& s) {
  if (const auto t = asBatchTranspose(s)) return ReorderedTranspose{*t, {}};
  const int n = static_cast<int>(s.shape.size());
  if (n < 4 || s.perm[n - 2] != n - 1 || s.perm[n - 1] != n - 2) return std::nullopt;
  const std::int64_t matrix = s.shape[n - 2] * s.shape[n - 1];
  ReorderedTranspose r{{s.elements() / matrix, s.shape[n - 2], s.shape[n - 1]}, {}};
  const DimensionStrides strides = stridesOf(s);
  for (int k = 0; k < n - 2; ++k) {
    const int d = s.perm[n - 3 - k];
    r.order.size[k] = DividerOf<std::int64_t>(s.shape[d]);
    r.order.stride[k] = strides.src[d] / matrix;
  }
  r.order.rank = n - 2;
  return r;
}

bool innermostMoves(const Permutation& s) {
  return s.perm.back() != static_cast<int>(s.shape.size()) - 1;
}

std::optional<Rows> asRows(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes) {
  if (innermostMoves(s) || s.shape.size() < 2) return std::nullopt;
  const std::int64_t rowBytes = s.shape.back() * bytes;
  if ((rowBytes != 2 && rowBytes != 4 && rowBytes != 8) || sourceOffsetBytes % rowBytes != 0)
    return std::nullopt;
  const int unit = static_cast<int>(rowBytes);
  return Rows{simplify(inMovementUnits(s, bytes, unit)), unit};
}

std::optional<Rows> asByteRows(const Permutation& s, int bytes) {
  if (innermostMoves(s) || s.shape.size() < 2) return std::nullopt;
  const std::int64_t rowBytes = s.shape.back() * bytes;
  if (rowBytes > kMaxByteRowBytes) return std::nullopt;
  Permutation rows = s;
  rows.shape.back() = 1;
  return Rows{simplify(rows), static_cast<int>(rowBytes)};
}

GeneralTiling byteRowTiling(const Permutation& rows, int rowBytes) {
  int units = 1;
  while (units * 2 * rowBytes <= kByteRowTileBytes) units *= 2;
  GeneralTiling g = generalTiling(rows, units);
  const int inMost = powerOfTwoAtLeast(g.inExtent, units);
  const int minIn =
      std::min(inMost, powerOfTwoAtLeast((kMinByteRowRunBytes + rowBytes - 1) / rowBytes, units));
  g.tileOut = std::min(powerOfTwoAtLeast(g.outExtent, units), units / minIn);
  g.tileIn = std::min(inMost, units / g.tileOut);
  return g;
}

// General tiles of a permutation, in the tile size for its element size; the groups of units of
// 4 bytes or more grown to fill their tiles (those of 1 and 2 bytes choose words and cells by the
// groups as they were measured).
GeneralTiling tilingOf(const Permutation& s, int bytes) {
  return generalTiling(s, generalTileElements(bytes), kGroupSpan, kGroupSpan,
                       bytes >= 4 ? kMinTileFill : 0);
}

// Cells' tiles, larger than the elements' ones, with groups as long as their sides and filling
// most of the tiles they cover: (72, 6, 10, 62137) with (2, 3, 1, 0) takes columns of 6 x 72
// instead of 72 (811 -> 1783 GB/s, u8, H100).
GeneralTiling cellTiling(const Permutation& s, int bytes) {
  const int in = GeneralLaunch::cellTileIn(bytes);
  const int out = GeneralLaunch::cellTileOut(bytes);
  GeneralTiling g = generalTiling(s, generalTileElements(bytes), in, out, kMinTileFill);
  g.tileIn = in;
  g.tileOut = out;
  return g;
}

namespace {

// Whether tiled_wide's cells fit: both sides whole cells, the source aligned to a cell's row (8
// bytes, 16 for doubles). 4- and 8-byte elements take them where destination rows are whole
// sectors: 2 x 2 cells moved 2-D and batch transposes of f32 1.04-1.19x as fast as single
// elements there (0.97x with aligned stores), of f64 1.00-1.12x (H200).
bool cellsFit(const BatchTranspose& t, int bytes, std::int64_t sourceOffsetBytes) {
  if (bytes >= 4 && t.rows * bytes % kSectorBytes != 0) return false;
  const int side = cell::side(bytes);
  return t.rows % side == 0 && t.cols % side == 0 && sourceOffsetBytes % cell::rowBytes(bytes) == 0;
}

// Bytes a general tile carries where both groups are shorter than its sides: a tile that carries
// little costs its offsets and barriers for few bytes.
std::int64_t tileCarriedBytes(const GeneralTiling& g, int bytes) {
  return std::min<std::int64_t>(g.inExtent, g.tileIn) *
         std::min<std::int64_t>(g.outExtent, g.tileOut) * bytes;
}

// Whether cells shifted into place pay (kMinShiftedCellGroup, kMinShiftedCellsBytes): judged on
// their own tiling, whose groups may differ from the elements' (an in group grown toward a cells'
// tile's 128 bytes may take the dimension the out group had grown into), and only where a group
// spans its side of the tile.
bool shiftedCellsPay(const Permutation& s, int bytes) {
  if (bytes > 2 || s.elements() * bytes < kMinShiftedCellsBytes) return false;
  const GeneralTiling g = cellTiling(s, bytes);
  return std::min(g.inExtent, g.outExtent) >= kMinShiftedCellGroup &&
         (g.inExtent >= g.tileIn || g.outExtent >= g.tileOut);
}

// Whether general tiles of bytes or halves fit cells of 8-byte rows that start on words, with
// both groups filling a tile's side (kMinCellGroup).
bool alignedCellsFit(const GeneralTiling& g, int bytes, std::int64_t sourceOffsetBytes) {
  return bytes <= 2 && std::min(g.inExtent, g.outExtent) >= kMinCellGroup &&
         generalCellsFit(g, bytes, sourceOffsetBytes);
}

// Byte tiles shorter than a cells' tile both ways, each group 48 or more (kMinShiftedCellGroup),
// take aligned words where they fit and fill kMinWalkTileFill of their tiles, else the movement
// kernel's walk, which finds each small tile's bytes in L1: (2, 6339, 145, 73) with (1, 0, 3, 2)
// moved 1355 GB/s through it, 1020 in shifted cells and 620 in shifted words. Batches of 128 MiB
// of 84 x 100, 100 x 84, 100 x 100, 84 x 84, 132 x 100, 68 x 76 and 116 x 92 matrices in aligned
// words filling 0.32 to 0.65 of their tiles moved 1.00 to 2.14x through the walk (84 x 100: 1186
// -> 1461 GB/s; 68 x 76: 780 -> 1669); filling 0.73 and 0.94, words moved 60 x 100 and 124 x 124
// 1.11 and 1.6x, 100 x 60 0.90x the walk (H100).
bool smallByteTiles(const Permutation& s) {
  const GeneralTiling g = cellTiling(s, 1);
  return std::min(g.inExtent, g.outExtent) >= kMinShiftedCellGroup && g.inExtent < g.tileIn &&
         g.outExtent < g.tileOut;
}

// The share of its tiles' elements a general tiling fills.
double tileFill(const GeneralTiling& g) {
  return g.inFill() * g.outFill();
}

// The source elements spanned by the destination's first `window` elements: the dimensions the
// destination runs along inside it, each at its source stride.
std::int64_t sourceSpanWithin(const GeneralTiling& g, std::int64_t window) {
  std::int64_t span = 1;
  const auto add = [&](const GeneralTiling::Axis* axes, int rank) {
    for (int k = 0; k < rank; ++k)
      if (axes[k].dstStride < window) span += (axes[k].size - 1) * axes[k].srcStride;
  };
  add(g.in, g.inRank);
  add(g.out, g.outRank);
  add(g.batch, g.batchRank);
  return span;
}

// Whether the movement kernel's walk in destination order beats mostly empty general tiles of
// elements, words or shifted cells (kMinWalkTileFill): where it comes back to the source's sectors
// within kNearReuse elements or sectors (they are still in L1), or reads at least half of each
// sector it touches.
bool walkBeatsSparseTiles(const GeneralTiling& g, int bytes, std::int64_t sourceOffsetBytes) {
  if (bytes < 2 || tileFill(g) >= kMinWalkTileFill || alignedCellsFit(g, bytes, sourceOffsetBytes))
    return false;
  const std::int64_t reuse = g.in[0].dstStride, sourceStep = g.out[0].srcStride * bytes;
  return std::min(reuse, sourceSpanWithin(g, reuse) * bytes / kSectorBytes) <= kNearReuse ||
         sourceStep <= kDenseSourceStepBytes;
}

// Byte tiles in aligned words filled less than kMinWalkTileFill: the walk, where the source's
// elements the destination runs through before it comes back to the source's sectors span
// kNearReuse sectors or fewer, or where it reads them at most kDenseSourceStepBytes apart. 16
// random u8 cases of 32 MiB and more in such tiles (H100): the 5 it takes moved 1.39 to 2.36x
// through the walk ((226, 41, 6, 100, 12) with (0, 1, 2, 4, 3): 727 -> 1714 GB/s; (116508, 96,
// 24) with (0, 2, 1): 1337 -> 1863); of the 7 it leaves in the same branches of auto, tiles moved
// 6 2.5 to 15.7x faster and one 0.60x (a span of 10935 sectors). Counting elements instead, as
// for wider elements, would take a batch transpose of 36 planes back after 36 elements over 9870
// sectors, which lost (1307 -> 818): transposes of 32 planes or more keep tiles. Measured on
// these cases only, from 32 MiB.
constexpr std::int64_t kMinSparseByteWordsBytes = std::int64_t{32} << 20;
bool walkBeatsSparseByteWords(const Permutation& s, const GeneralTiling& g) {
  // Elements of one byte: s.elements() is the tensor's bytes.
  if (s.elements() < kMinSparseByteWordsBytes || tileFill(g) >= kMinWalkTileFill) return false;
  return sourceSpanWithin(g, g.in[0].dstStride) / kSectorBytes <= kNearReuse ||
         g.out[0].srcStride <= kDenseSourceStepBytes;
}

// Whether general tiles' columns would be short while the destination goes on along a
// dimension the source holds close together (kShortColumnBytes).
bool shortColumnsOverSourceRuns(const Permutation& s, const GeneralTiling& g, int bytes) {
  const int rank = static_cast<int>(s.shape.size());
  const int next = rank - 1 - g.outRank;  // the destination's dimension after the group
  if (g.outExtent * bytes > kShortColumnBytes || next < 0) return false;
  std::int64_t sourceStride = 1;
  for (int d = s.perm[static_cast<std::size_t>(next)] + 1; d < rank; ++d)
    sourceStride *= s.shape[static_cast<std::size_t>(d)];
  return sourceStride * bytes <= kShortColumnBytes;
}

// The narrow kernel's default launch in shared memory.
NarrowLaunch defaultNarrowLaunch(const BatchTranspose& t, int bytes,
                                 std::int64_t sourceOffsetBytes) {
  NarrowLaunch l;
  l.batch = t.batch;
  l.planarSource = t.rows <= t.cols;
  l.narrow = std::min(t.rows, t.cols);
  l.wide = std::max(t.rows, t.cols);
  l.elementBytes = bytes;
  l.vectorBytes = kNarrowVectorBytes;
  l.sourceHead = static_cast<int>(sourceOffsetBytes % kNarrowVectorBytes) / bytes;
  l.block = kNarrowBlock;
  return l;
}

// Waves of the device's block slots the narrow kernel's chunks fill in its default launch.
double narrowWaves(const BatchTranspose& t, int bytes, std::int64_t sourceOffsetBytes,
                   const DeviceInfo& device) {
  const NarrowLaunch l = defaultNarrowLaunch(t, bytes, sourceOffsetBytes);
  return static_cast<double>(l.chunks()) * l.block / static_cast<double>(waveThreads(device));
}

// Packed tiles, for tensors of 32 MiB or more, where tiles of two groups would have a side of 2
// elements to 48 bytes, or tiles of bytes would carry little while the source's runs are 4 bytes
// or more, and packed tiles run 64 bytes or more on both sides. Against the kernel auto took, on
// the random bench's cases (H100): short sides in general tiles 1.06 to 2.8x ((100, 3, 23, 400,
// 24) with (4, 2, 0, 3, 1) in f16: 650 -> 1818 GB/s; (5, 273913, 49) reversed in u8: 508 ->
// 1227), one loss of 4 % ((2441, 7, 187, 3, 7) in f32); longer sides lost (0.2 to 0.98: (2, 300,
// 4, 96, 44) in f64 with a side of 32, 2685 -> 2223), single elements too ((7, 449, 3, 12, 74, 2)
// in f32: 0.78). Bytes the walk took: 1.18 to 2.2x where the source ran 4 bytes or more ((127826,
// 3, 100, 7) with (3, 1, 0, 2): 673 -> 1466), one loss of 5 %, 0.8 to 0.84 where it ran 1 to 3;
// halves lost to the walk (0.7 to 0.94, two gains of 11 and 25 % aside). Tensors of 4 to 16 MiB
// lost, whose few tiles a block leave its positions' set-up unpaid ((27, 1294, 12, 5) with (1, 3,
// 2, 0) in f16, 4 MiB: 840 -> 280). Bytes likewise where general tiles' columns (the
// destination's innermost group) would be shorter than a cells' group, 49 to 63 bytes: 1.7 to
// 3.6x on 6 random cases of 32 MiB and more ((2, 16870, 26, 153) with (1, 3, 2, 0): 409 -> 1458
// GB/s), where their rows were that short instead general tiles kept 1.24 to 1.9x (8 cases).
// Short sides of halves and floats that the walk would take likewise where the walk comes back to
// the source's next element only after kMinWalkReturnBytes of the destination, its sectors gone
// from L2 by then: 7 random draws 1.14 to 3.2x ((3, 5592405, 8) reversed in f16: 777 -> 240 us; (9,
// 669, 851, 3) with (3, 1, 0, 2) in f32 79 -> 54 us), then 10 fresh draws the rule took 1.18
// to 2.7x; where it came back within 615 KiB the walk kept up to 1.29x (7 of 10 draws 1.06 to
// 1.29x), and doubles, back within 2 KiB, 1.05 to 1.32x (8).
constexpr std::int64_t kMinPackedBytes = std::int64_t{32} << 20;
constexpr std::int64_t kMinPackedRunBytes = 64;
constexpr std::int64_t kMaxShortSideBytes = 48;
constexpr std::int64_t kMinWalkReturnBytes = std::int64_t{4} << 20;
constexpr std::int64_t kMinPackedSourceRunBytes = 4;

// The shorter of a packed tile's runs in bytes, 0 where no packed tiling exists.
std::int64_t packedRunBytes(const Permutation& s, int bytes) {
  const auto p = packedTiling(s, bytes);
  return p ? std::min(p->runIn, p->runOut) * bytes : 0;
}

bool packedRunsLong(const Permutation& s, int bytes) {
  return packedRunBytes(s, bytes) >= kMinPackedRunBytes;
}

// Planes to channels last with more planes than the narrow kernel takes: tiles leave the
// destination's rows of kMaxNarrow to maxPackedPlanes() elements straddling sectors where they are
// no whole sectors, while a packed tile holds whole rows and writes them as one run. 128 MiB
// transposes (H100): bytes at 65, 84, 100 and 127 planes 1.18 to 2.3x (65 x 2064888: 641 -> 1499
// GB/s), f32 1.31 to 1.48x (100 x 335544: 1830 -> 2402), f64 at 65 and 127 1.19 and 1.20x; rows
// of whole sectors kept tiles (f64 at 84 and 100 within 2 %, bytes at 160 planes 2197 against
// 1469), halves keep shifted cells (84 and 127 planes: 2223 and 2084 against 1978 and 1908), and
// a 54 MiB one lost (95 x 73920 f64: 2238 -> 2077). Bytes from 49 planes, where the narrow
// kernel does not take them: (51, 5263440) 513 -> 1622 GB/s, (63, 4260880) 628 -> 1594. Tiles with
// aligned stores beat them where one tall tile holds each column (67 to 95 planes of 4- and 8-byte
// elements: 2529 -> 2815 GB/s for (95, 350000) f32, 2545 -> 2930 for (95, 170000) f64).
// Past 128 planes the tiled kernel's tiles stay behind packed ones for floats up to 256 planes
// and doubles up to 160 (random draws of 64 MiB and more, H100): f32 at 140 to 189 planes (6,
// batches of 2 and 101 among them) 1.01 to 1.71x (140 x 479349: 0.566 -> 0.865 of the copy
// ceiling), f64 at 131 to 159 (11) 1.12 to 1.26x (159 x 105517: 0.684 -> 0.819). Further on
// they went both ways: floats at 301 to 575 planes 0.84 to 1.53x (reading runs of 52 bytes or
// less), doubles at 169 to 426 0.80 to 1.04x.
std::int64_t maxPackedPlanes(int bytes) {
  return bytes == 4 ? 256 : bytes == 8 ? 160 : 128;
}
constexpr std::int64_t kMinPackedTransposeBytes = std::int64_t{64} << 20;
bool packedTransposePays(const Permutation& s, const BatchTranspose& t, int bytes) {
  const std::int64_t planes = t.rows;
  const std::int64_t fewest = bytes == 1 ? kMaxShortSideBytes : kMaxNarrow;
  return t.rows <= t.cols && planes > fewest && planes <= maxPackedPlanes(bytes) && bytes != 2 &&
         planes * bytes % kSectorBytes != 0 && t.cols >= kMinNarrowWide &&
         !(bytes >= 4 && alignedTallTileHoldsColumn(planes, alignedTileFor(planes, bytes))) &&
         s.elements() * bytes >= kMinPackedTransposeBytes && packedTiling(s, bytes);
}

// Rows of 3 to 15 bytes (not 4 or 8) that stay innermost, which the walk moves in units of 1 to 4
// bytes: where it comes back to the source's next row down only after kFarRowDown elements of the
// destination or more (its sectors long gone from L1), packed tiles that run 128 bytes or more
// both ways, from 32 MiB. Against the walk (H100): fitted on 19 random cases, 5 of the 6 it takes
// 1.18 to 5.8x ((1864135, 6, 4, 3) with (1, 2, 0, 3) in u8: 258 -> 1488 GB/s), one 0.82 ((13,
// 1472, 701, 5) with (2, 1, 0, 3) in f16); where the walk came back within 98 elements it kept
// 1.1 to 1.4x, and shorter runs lost (0.50 to 0.93; two of 70 and 80 bytes won 1.27 and 1.21x).
// Then 16 other random cases it takes: 14 moved 1.13 to 3.2x ((499, 1000, 3, 12, 3) with (3, 0,
// 2, 1, 4) in f32: 758 -> 2450; (2739137, 7, 7) with (1, 0, 2) in f16: 921 -> 2185), two of bytes
// whose walk was fast lost ((3199, 839, 5, 10) with (0, 2, 1, 3): 2489 -> 1493; 0.80). The random
// bench's (3, 2, 4, 215092, 13) with (3, 2, 0, 1, 4) in u8, back after 312 elements, keeps the
// walk (1616 against 1359). Rows of bytes from runs of 64 bytes: 14 random draws whose runs were
// 64 to 127 bytes, 13 moved 1.04 to 6.0x ((166, 100, 97, 24, 3) with (3, 1, 2, 0, 4): 976 -> 163
// us; (4, 394758, 34, 5) with (0, 2, 1, 3): 1490 -> 374), one lost 1.35x ((13, 1000, 4, 61, 7,
// 12) with (1, 4, 3, 0, 2, 5)); halves and floats went both ways there (6 of 8 won 1.04 to 3.1x,
// (15, 12844, 96, 7) with (0, 2, 1, 3) in f16 and (61119, 183, 3) with (1, 0, 2) in f32 lost 1.55
// and 1.49x) and keep 128.
constexpr std::int64_t kMinPackedRowRunBytes = 128;
constexpr std::int64_t kMinPackedByteRowRunBytes = 64;
constexpr std::int64_t kShortRowBytes = 16;
constexpr std::int64_t kFarRowDown = 4096;
bool packedRowsPay(const Permutation& s, int bytes) {
  const int rank = static_cast<int>(s.shape.size());
  if (rank < 3 || s.shape.back() * bytes >= kShortRowBytes ||
      s.elements() * bytes < kMinPackedBytes)
    return false;
  // The destination's stride of the source's dimension outside rows: how far the walk goes
  // before it comes back to the next row down.
  return stridesOf(s).dst[rank - 2] > kFarRowDown &&
         packedRunBytes(s, bytes) >=
             (bytes == 1 ? kMinPackedByteRowRunBytes : kMinPackedRowRunBytes);
}

// Halves in general tiles of elements (no words or cells fit) that fill less than
// kMaxPackedHalfFill of their tiles: packed tiles where they run kMinPackedRowRunBytes or more
// both ways. 10 random f16 cases of 32 MiB and more in such tiles (H100): the 7 it takes moved
// 1.38 to 1.96x ((12, 34, 715, 23, 5) with (0, 2, 4, 3, 1): 871 -> 1711 GB/s), and the random
// bench's (2, 33, 67, 27, 17, 15) with (5, 3, 0, 2, 4, 1) 871 -> 1377; of the three with shorter
// runs, 84 and 104 bytes won 1.15 and 1.22x, 74 lost (0.82). f32 in such tiles split (3 of 8
// 1.17 to 1.23x, 3 within 2 %, 2 lost to 0.89 and 0.53), f64 lost (3 of 4, 0.80 to 0.90).
constexpr double kMaxPackedHalfFill = 0.65;

// Whether packed tiles beat the general tiles or the walk auto would take otherwise;
// `singleHalves`: general tiles would move halves one at a time.
bool packedPays(const Permutation& s, const GeneralTiling& g, int bytes, Kind otherwise,
                bool singleHalves) {
  if (s.elements() * bytes < kMinPackedBytes) return false;
  if (otherwise == Kind::General && singleHalves && tileFill(g) < kMaxPackedHalfFill &&
      packedRunBytes(s, bytes) >= kMinPackedRowRunBytes)
    return true;
  const std::int64_t side = std::min(g.inExtent, g.outExtent);
  const bool lateReturn = otherwise == Kind::Movement && (bytes == 2 || bytes == 4) &&
                          stridesOf(s).dst[s.shape.size() - 1] * bytes >= kMinWalkReturnBytes;
  const bool shortSide =
      (otherwise == Kind::General || lateReturn) && side >= 2 && side * bytes <= kMaxShortSideBytes;
  const bool shortByteColumns =
      otherwise == Kind::General && bytes == 1 && g.outExtent >= 2 && g.outExtent < kMinCellGroup;
  const bool byteWalk = otherwise == Kind::Movement && bytes == 1 &&
                        std::min<std::int64_t>(g.inExtent, g.tileIn) >= kMinPackedSourceRunBytes;
  return (shortSide || shortByteColumns || byteWalk) && packedRunsLong(s, bytes);
}

// Packed tiles in words, for bytes and halves in tensors of 32 MiB or more the walk would take,
// where the tiles run 128 bytes or more both ways and, for rows that stay innermost, the walk's
// rows are shorter than 64 bytes. Against the walk on the random bench's cases (H100): 1.02 to
// 1.32x on 6 cases ((13, 107546, 2, 8, 3) with (1, 3, 4, 0, 2) in f16: 2150 -> 2792 GB/s;
// (828504, 3, 54) with (1, 0, 2) in u8: 1952 -> 2532); the walk kept 1.1 to 1.2x over rows of
// 112 bytes or more ((5, 479349, 56) with (1, 0, 2) in f16), 1.13 and 4.9x where a tile wrote
// runs of 28 and 24 bytes, and 1.05 to 4.4x on 5 of 7 tensors of 16 MiB or less.
constexpr std::int64_t kMinPackedWordsRunBytes = 128;
constexpr std::int64_t kMaxWalkedRowBytesForWords = 64;

bool packedWordsPay(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes) {
  if (bytes > 2 || s.elements() * bytes < kMinPackedBytes) return false;
  if (!innermostMoves(s) && s.shape.back() * bytes >= kMaxWalkedRowBytesForWords) return false;
  const auto p = packedTiling(s, bytes);
  return p && std::min(p->runIn, p->runOut) * bytes >= kMinPackedWordsRunBytes &&
         packedWords(*p, bytes, sourceOffsetBytes).bytes > 0;
}

// Rows shorter than 64 bytes that stay innermost, in tensors of 4 MiB or more, where the walk
// would move them a byte at a time (rows of an odd length, or from an odd byte), or a half at a
// time in rows of 5 halves or more: general tiles of the rows as units of their bytes. H200,
// against the walk on 15 cases it takes: 14 moved 1.10 to 1.80x ((370, 25, 126, 57) with (2, 1, 0,
// 3) in u8 1626 -> 2812 GB/s, (256, 224, 224, 3) with (0, 2, 1, 3) in u8 1031 -> 1769), one lost
// ((300, 400, 29) with (1, 0, 2) in f16, 7 MiB, 0.90); rows of 3 halves lost (0.87), 3.7 MB lost
// (0.87), rows the walk moves in 4 bytes or more lost 0.61 to 0.85, and packed tiles in words
// kept (3, 2, 4, 215092, 13) with (3, 2, 0, 1, 4) in u8 and (828504, 3, 54) with (1, 0, 2).
constexpr std::int64_t kMaxByteRowWalkBytes = 64;
constexpr std::int64_t kMinByteRowsBytes = std::int64_t{4} << 20;
constexpr std::int64_t kMinByteRowHalves = 5;
// And where a tile's rows read 64 bytes or more of the source and its in group fills 0.6 of its
// tiles: (1342177, 5, 5) and (2000000, 5, 3) with (1, 0, 2) in u8, source runs of 25 and 15 bytes,
// lost 0.82 and 0.59x; (100000, 17, 9), runs of 144 filling 0.53, 0.92; (200000, 30, 5), 150
// filling 0.94, won 1.8x, (100000, 40, 5), 160 filling 0.63, 1.3x.
constexpr std::int64_t kMinByteRowSourceRunBytes = 64;
constexpr double kMinByteRowInFill = 0.6;
bool byteRowsPay(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes) {
  if (innermostMoves(s) || s.shape.size() < 2 || asRows(s, bytes, sourceOffsetBytes)) return false;
  const std::int64_t row = s.shape.back() * bytes;
  const int unit = movementSize(s, bytes, static_cast<std::uintptr_t>(sourceOffsetBytes), 0);
  if (row >= kMaxByteRowWalkBytes || s.elements() * bytes < kMinByteRowsBytes ||
      !(unit == 1 || (unit == 2 && row / unit >= kMinByteRowHalves)))
    return false;
  const auto rows = asByteRows(s, bytes);
  const GeneralTiling g = byteRowTiling(rows->perm, rows->bytes);
  return std::min<std::int64_t>(g.inExtent, g.tileIn) * row >= kMinByteRowSourceRunBytes &&
         g.inFill() >= kMinByteRowInFill;
}

}  // namespace

// How auto has general tiles move their units: cells of 8-byte rows where both groups fill a
// tile's side and rows start on words, else cells shifted into place where they pay (519, 4, 42,
// 6, 5, 46 with (0, 5, 4, 3, 2, 1) in f16: 2588 GB/s against 2052 in aligned pairs, H100), else
// aligned words, else words shifted into place for bytes in columns of two words or more
// (kMinShiftedColumn), else elements.
Access autoAccess(const Permutation& s, const GeneralTiling& g, int bytes,
                  std::int64_t sourceOffsetBytes) {
  if (bytes >= 4) return Access::Elements;
  if (alignedCellsFit(g, bytes, sourceOffsetBytes) || shiftedCellsPay(s, bytes))
    return Access::Cells;
  if (generalWordsFit(g, bytes, sourceOffsetBytes)) return Access::Words;
  return bytes == 1 && g.outExtent >= kMinShiftedColumn ? Access::Words : Access::Elements;
}

namespace {

// Batches of planes of bytes and halves go through the planes kernel where a plane is 5 to 13 KiB
// and its gathers meet 8 words a bank or fewer, from 64 MiB. Batches of 128 MiB against auto's
// choice before (H100): bytes in planes of (84, 100) 1.74x, (100, 84) 1.64x, (124, 100) 1.56x,
// (200, 60) 1.71x, (96, 96) 1.28x; halves in (48, 80) 1.29x and (50, 60) 1.09x. Smaller planes
// lost (bytes: (48, 80) 0.73x, (28, 28) 0.43x, (12, 100) 0.29x; a plane is too little work
// between a block's barriers), and so did 16 KiB of halves ((84, 100): 0.91x), gathers meeting
// 32 words a bank ((64, 64) halves: 0.43x) and 4- and 8-byte elements, which tiles already move
// at 0.87 to 1.0 of the copy ceiling (0.48x to 1.04x). Batches count from 60 MiB (those drawn
// for 64 MiB fall a few KiB short), and planes of bytes up to 17 KiB (H200, forty-seventh pass):
// (8388, 200, 40) 0.848 of the copy ceiling against tiled_wide's 0.682, (9320, 120, 60) 0.741
// against lines' 0.667, (4301, 300, 52) 0.837 against 0.564, (3994, 700, 24) 0.788 against
// 0.500; planes of 47 KiB ((1386, 1100, 44)) 0.683 against 0.650 were not taken.
constexpr std::int64_t kMinAutoPlaneBytes = 5 * 1024;
constexpr std::int64_t kMaxAutoPlaneBytes = 13 * 1024;
constexpr std::int64_t kMaxAutoBytePlaneBytes = 17 * 1024;
constexpr int kMaxAutoPlaneBankWays = 8;
constexpr std::int64_t kMinAutoPlanesTensorBytes = std::int64_t{60} << 20;

bool planesPay(const BatchTranspose& t, int bytes, std::int64_t sourceOffsetBytes) {
  const PlaneLaunch l{t.batch, t.rows, t.cols, bytes};
  if (bytes > 2 || t.batch * l.planeBytes() < kMinAutoPlanesTensorBytes) return false;
  const std::int64_t most = bytes == 1 ? kMaxAutoBytePlaneBytes : kMaxAutoPlaneBytes;
  if (!planesFit(t.rows, t.cols, bytes, sourceOffsetBytes, most)) return false;
  return l.planeBytes() >= kMinAutoPlaneBytes && l.bankWays() <= kMaxAutoPlaneBankWays;
}

Kind kindBeforeWords(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes,
                     const DeviceInfo& device);

// Batched transposes of 4- and 8-byte elements whose destination reorders the batch go through
// the narrow kernel where the same transposes in order would, in tensors of 32 MiB or more.
// Reading the matrices out of order costs the narrow kernel 2 to 67 % against the same bytes in
// order (H100), most for small matrices of bytes. Against auto's kernel before, on the 46 of
// 40,000 random draws the rule reaches (seed 281, H100): of 32 MiB or more 24 of 35 moved
// 1.01-1.22x as fast ((96, 3, 224, 52, 5) with (1, 0, 4, 2, 3) f32 to 0.962 of the copy ceiling),
// 6 within 1 %, 5 1.01-1.13x slower ((7, 22, 37, 5, 1177) with (2, 1, 0, 4, 3) f32); under 32 MiB
// 6 faster, 5 slower up to 1.38x ((2, 1000, 2, 1048) with (1, 0, 3, 2) f32, 16 MiB). Bytes and
// halves went both ways (u8 (12, 100, 37282, 3) 0.52 -> 0.84, (276, 228, 1128, 3) 0.77 -> 0.39).
// Bytes go through it where its cells in registers pay (2 to 8 planes of whole words, or from
// planes): (96, 78, 3, 5976) with (1, 0, 3, 2) u8 moved 3566 GB/s there against 2472 through
// packed tiles, (78, 96, 3, 5974) in shifted cells 2654 against 1512; halves keep packed tiles
// ((4, 1000, 2, 16700) f16: 3028 against 3655; H200), as do bytes and halves the cells do not
// take.
constexpr std::int64_t kMinReorderedNarrowBytes = std::int64_t{32} << 20;

bool reorderedNarrowPays(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes,
                         const DeviceInfo& device) {
  const auto r = asReorderedTranspose(s);
  if (s.elements() * bytes < kMinReorderedNarrowBytes || !r || r->order.rank == 0) return false;
  if (bytes == 2) return false;
  if (bytes == 1) {
    const std::int64_t wide = std::max(r->t.rows, r->t.cols);
    return wide >= kMinNarrowWide && narrowCellsPay(std::min(r->t.rows, r->t.cols), wide, bytes,
                                                    sourceOffsetBytes, r->t.rows <= r->t.cols);
  }
  const Permutation inOrder{{r->t.batch, r->t.rows, r->t.cols}, {0, 2, 1}};
  return kindBeforeWords(inOrder, bytes, sourceOffsetBytes, device) == Kind::Narrow;
}

// Rows that stay innermost: general tiles over rows of 2, 4 or 8 bytes, else the walk or packed
// tiles. Batches of small planes that pay: the planes kernel. Small byte tiles without aligned
// words or well filled: the walk. Transposes with both sides 32 or more: the narrow kernel for a
// side of 64 or less where it pays, else the walk for 47 planes or fewer to channels last, else
// packed tiles for 65 (bytes: 49) to maxPackedPlanes() planes to channels last, else cells,
// pairs of halves, shifted cells or words, else the tiled kernel. A shorter side: the narrow
// kernel, else general tiles for 8 planes or more in words (sparse ones of bytes: the walk) or
// wide elements, else the walk. A reordered batch of transposes: the narrow kernel where it pays.
// Any other permutation: general tiles unless short columns or sparse tiles lose to the walk,
// either one packed tiles where they pay. H100, H200 (PERFORMANCE.md).
Kind kindBeforeWords(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes,
                     const DeviceInfo& device) {
  if (!innermostMoves(s)) {
    const auto rows = asRows(s, bytes, sourceOffsetBytes);
    if (rows &&
        tileCarriedBytes(tilingOf(rows->perm, rows->bytes), rows->bytes) >= kMinGeneralTileBytes)
      return Kind::General;
    return !rows && packedRowsPay(s, bytes) ? Kind::Packed : Kind::Movement;
  }
  const GeneralTiling g = tilingOf(s, bytes);
  const auto t = asBatchTranspose(s);
  if (t && planesPay(*t, bytes, sourceOffsetBytes)) return Kind::Planes;
  const bool words = generalWordsFit(g, bytes, sourceOffsetBytes);
  if (bytes == 1 && smallByteTiles(s) && (!words || tileFill(g) < kMinWalkTileFill))
    return Kind::Movement;
  const bool sparseByteWords = bytes == 1 && words && walkBeatsSparseByteWords(s, g);
  if (!t) {
    if (reorderedNarrowPays(s, bytes, sourceOffsetBytes, device)) return Kind::Narrow;
    const Kind tilesOrWalk = tileCarriedBytes(g, bytes) >= kMinGeneralTileBytes &&
                                     !shortColumnsOverSourceRuns(s, g, bytes) &&
                                     !walkBeatsSparseTiles(g, bytes, sourceOffsetBytes)
                                 ? Kind::General
                                 : Kind::Movement;
    const bool singleHalves =
        bytes == 2 && autoAccess(s, g, bytes, sourceOffsetBytes) == Access::Elements;
    if (packedPays(s, g, bytes, tilesOrWalk, singleHalves)) return Kind::Packed;
    return sparseByteWords ? Kind::Movement : tilesOrWalk;
  }
  const std::int64_t wide = std::max(t->rows, t->cols), planes = std::min(t->rows, t->cols);
  const bool planar = t->rows <= t->cols;  // planes to channels last
  const bool narrow = wide >= kMinNarrowWide;
  const int whole = narrowVectorBytes(wide, bytes, sourceOffsetBytes);
  const bool shiftedFills = planes <= kMaxNarrow && narrowWaves(*t, bytes, sourceOffsetBytes,
                                                                device) >= kMinShiftedNarrowWaves;
  const bool generalTiles = shiftedCellsPay(s, bytes) || (bytes == 1 && words);
  if (planes < kMinTiledSide) {
    const bool general = planes >= 8 && (words || bytes >= 4);
    if (planar) {
      if (!narrow || kNarrowVectorBytes / bytes < kMinPlanarNarrowElements) return Kind::Movement;
      return whole / bytes >= kMinPlanarNarrowElements || shiftedFills ? Kind::Narrow
                                                                       : Kind::Movement;
    }
    if (narrow && (whole / bytes >= kMinInterleavedNarrowElements || bytes == 8 || shiftedFills))
      return Kind::Narrow;
    if (general) return sparseByteWords ? Kind::Movement : Kind::General;
    return narrow && (bytes >= 4 || planes * bytes > kMaxWalkedRowBytes) ? Kind::Narrow
                                                                         : Kind::Movement;
  }
  if (planes <= kMaxNarrow && narrow) {
    if (whole == kNarrowVectorBytes ? bytes >= 2
                                    : shiftedFills && (planar || (bytes <= 2 && !generalTiles)))
      return Kind::Narrow;
    if (planar && planes <= kMaxWalkedPlanes && whole == bytes) return Kind::Movement;
  }
  if (packedTransposePays(s, *t, bytes)) return Kind::Packed;
  if (cellsFit(*t, bytes, sourceOffsetBytes)) return Kind::TiledWide;
  const bool pairs =
      bytes == 2 && t->rows % 2 == 0 && t->cols % 2 == 0 && sourceOffsetBytes % 4 == 0;
  if (pairs) return Kind::TiledPairs;
  return generalTiles ? Kind::General : Kind::Tiled;
}

}  // namespace

namespace {

// Byte transposes go through lines (raw rows, gathered columns) where the kernel above would
// move them worst (H200, 2-D and batches against auto's choice before, forty-sixth pass; tiles
// that hold whole rows, copied as one run):
// - from channels last to 20 to 63 planes where the narrow kernel would take them, or to 12 or
//   more where it would swizzle its vectors, from 4 MB: 1.02 to 2.23x on 21 to 47 planes of 64
//   MiB ((1677721, 40): 0.320 -> 0.708 of the copy ceiling; (2164802, 31) 0.566 -> 0.769),
//   (3728270, 18) 1.57x, 4 MiB of 24 1.65x; in tiles of two segments (forty-seventh pass) 12
//   and 14 planes 1.20-1.34x at 64 MiB, 1.21-1.26x at 16 MiB; 19 planes 1.02x, 16 1.01x, 15
//   0.94x, 17 0.70x, 13 0.73x, 11 0.77x, 10 0.96x, 9 0.38x;
// - from channels last to 63 planes or fewer where general tiles would take them, from 12 MB:
//   1.24 to 1.66x on 50 to 60 planes of 32 and 64 MiB ((1290555, 52): 0.488 -> 0.773), batches
//   of 96 to 2049 rows 1.10 to 1.56x ((14563, 96, 24): 0.394 -> 0.605), 14 MiB 1.10x; 65 to 128
//   planes went both ways (0.77 to 1.05x);
// - where the tiled kernel would move single bytes, from 3 MB: 1.12 to 2.41x ((466033, 36), 16
//   MiB: 0.263 -> 0.633; (2049, 2049) 1.12x), but 1 MiB ((1025, 1025)) 0.77x;
// - from channels last to 64 to 80 planes where general tiles would take them, from 64 MB, once
//   tiles packed their lanes (forty-ninth pass, 64 MiB): (932067, 72) 1.11x (0.717 -> 0.794),
//   (838860, 80) 1.02x; 96 planes level.
constexpr std::int64_t kMinLinePlanes = 20;
constexpr std::int64_t kMinLinePlanesOverSwizzled = 12;
constexpr std::int64_t kMaxLinePlanes = 63;
constexpr std::int64_t kMinLinesOverNarrowBytes = 4'000'000;
constexpr std::int64_t kMinLinesOverGeneralBytes = 12'000'000;
constexpr std::int64_t kMinLinesOverTiledBytes = 3'000'000;
constexpr std::int64_t kMaxWideLinePlanes = 80;
constexpr std::int64_t kMinWideLinesBytes = 64'000'000;

// Transposes of halves, and batches of them, from channels last go through lines (H200,
// forty-ninth pass, tiles that pack their lanes):
// - to 12 to 40 planes where the narrow kernel would take them with planes that start inside its
//   vectors, from 16 MB: 12 planes 1.14x, 16 1.32x, 24 1.45x (16 MiB 1.39x, 32 MiB 1.54x, batches
//   of 4 and 64 1.46-1.49x, of 1000 1.37x), 33 1.08x, 36 1.60x, 40 1.60x (32 MiB 1.51x, batches
//   of 16 and 256 1.59-1.61x) ((838860, 40): 0.568 -> 0.907 of the copy ceiling); where its
//   planes start on vectors it kept them: (1048576, 16) 0.94x, (559240, 60) 0.98x, (524288, 64)
//   0.94x, (4194304, 8) 0.81x;
// - to 40 to 52 planes where tiles would take them, from 8 MB: 40 planes at 8 and 16 MiB 1.86x
//   and 2.61x over the tiled kernel, 48 planes 1.58x over pairs, 52 1.43x over general tiles
//   (64 MiB).
constexpr std::int64_t kMinHalfLinePlanes = 12;
constexpr std::int64_t kMaxHalfLinePlanesOverNarrow = 40;
constexpr std::int64_t kMinHalfLinePlanesOverTiles = 40;
constexpr std::int64_t kMaxHalfLinePlanes = 52;
constexpr std::int64_t kMinHalfLinesOverNarrowBytes = 16'000'000;
constexpr std::int64_t kMinHalfLinesOverTilesBytes = 8'000'000;

bool halfLinesPay(const BatchTranspose& t, Kind kind, std::int64_t tensorBytes,
                  std::int64_t sourceOffsetBytes) {
  if (t.rows <= t.cols || t.cols < kMinHalfLinePlanes || t.cols > kMaxHalfLinePlanes) return false;
  if (kind == Kind::Narrow)
    return t.cols <= kMaxHalfLinePlanesOverNarrow && tensorBytes >= kMinHalfLinesOverNarrowBytes &&
           defaultNarrowLaunch(t, 2, sourceOffsetBytes).planesShifted();
  const bool tiles = kind == Kind::Tiled || kind == Kind::TiledPairs || kind == Kind::General;
  return tiles && t.cols >= kMinHalfLinePlanesOverTiles &&
         tensorBytes >= kMinHalfLinesOverTilesBytes;
}

// So do reordered batches of transposes (the batch's dimensions permuted) of bytes or halves from
// channels last to 12 to 64 planes, from 32 MiB, where packed or general tiles would take them
// (H200, forty-eighth pass): 1.05 to 1.94x on 14 of 15 ((53, 5, 10551, 24) with (1, 0, 3, 2) in
// u8: 0.383 -> 0.673 of the copy ceiling; (7, 9, 11, 2000, 40) with (2, 0, 1, 4, 3) in f16: 0.491
// -> 0.821), (600, 3, 2000, 24) in u8 0.91x; 8 and 96 planes lost (0.86 to 0.93x), as did 16
// and 64 planes at 16 MiB.
constexpr std::int64_t kMinReorderedLinePlanes = 12;
constexpr std::int64_t kMaxReorderedLinePlanes = 64;
constexpr std::int64_t kMinReorderedLinesBytes = std::int64_t{32} << 20;

bool reorderedLinesPay(const Permutation& s, Kind kind, int bytes) {
  const auto r = asReorderedTranspose(s);
  if (!r || r->order.rank == 0 || (kind != Kind::General && kind != Kind::Packed)) return false;
  return r->t.rows > r->t.cols && r->t.cols >= kMinReorderedLinePlanes &&
         r->t.cols <= kMaxReorderedLinePlanes && s.elements() * bytes >= kMinReorderedLinesBytes;
}

bool linesPay(const Permutation& s, Kind kind, int bytes, std::int64_t sourceOffsetBytes) {
  const auto l = defaultLineLaunch(s, bytes);
  if (!l || !linesFit(*l)) return false;
  if (reorderedLinesPay(s, kind, bytes)) return true;
  const auto t = asBatchTranspose(s);
  if (!t) return false;
  const std::int64_t tensorBytes = s.elements() * bytes;
  if (bytes == 2) return halfLinesPay(*t, kind, tensorBytes, sourceOffsetBytes);
  if (bytes != 1) return false;
  if (kind == Kind::Tiled) return tensorBytes >= kMinLinesOverTiledBytes;
  if (t->rows <= t->cols) return false;  // from planes
  if (kind == Kind::General && t->cols <= kMaxWideLinePlanes && tensorBytes >= kMinWideLinesBytes)
    return true;
  if (t->cols > kMaxLinePlanes) return false;
  if (kind == Kind::Narrow)
    return tensorBytes >= kMinLinesOverNarrowBytes &&
           (t->cols >= kMinLinePlanes ||
            (t->cols >= kMinLinePlanesOverSwizzled &&
             defaultNarrowLaunch(*t, bytes, sourceOffsetBytes).swizzlePays()));
  return kind == Kind::General && tensorBytes >= kMinLinesOverGeneralBytes;
}

}  // namespace

// The kernel above, lines where they pay, packed tiles in words where they beat the walk, else
// general tiles of rows as units of their bytes where those do.
Kind autoKind(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes,
              const DeviceInfo& device) {
  const Kind kind = kindBeforeWords(s, bytes, sourceOffsetBytes, device);
  if (linesPay(s, kind, bytes, sourceOffsetBytes)) return Kind::Lines;
  if (kind != Kind::Movement) return kind;
  if (packedWordsPay(s, bytes, sourceOffsetBytes)) return Kind::Packed;
  return byteRowsPay(s, bytes, sourceOffsetBytes) ? Kind::General : kind;
}

}  // namespace kwb::permute
