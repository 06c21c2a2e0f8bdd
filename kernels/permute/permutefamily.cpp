// The permute family: any permutation of up to 8 dimensions, from one thread per element with
// 64-bit index arithmetic to simplified dimensions, 16-byte movements, tiled transposes and tiles
// for any permutation that moves the innermost dimension.
#include <memory>
#include <optional>

#include "core/error.h"
#include "kernels/launchgeometry.h"
#include "kernels/permute/generaltiled.h"
#include "kernels/permute/narrowtranspose.h"
#include "kernels/permute/packedtranspose.h"
#include "kernels/permute/permutelaunch.h"
#include "kernels/permute/permuteworkload.h"
#include "kernels/permute/tiledtranspose.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

using permute::listText;
using permute::Permutation;
using permute::PermuteLauncher;

constexpr int kWaves = 32;
// auto's tiles: transposes whose sides are both at least kMinTiledSide long (OneFlow's tile
// size) take 64-element tiles with 8 rows of threads where both sides fill one, else 32.
constexpr int kMinTiledSide = 32;
constexpr int kAutoTile = 64;
constexpr int kAutoRows = 8;
// tiled_wide's tiles: 2 cells a thread, 32 across for 16-bit elements (a warp reads 256 bytes of
// a row), 16 for bytes, where a wider tile of 2 cells a thread would not fit; the best measured
// on an H100 (docs/PERFORMANCE.md, permute, sixth pass).
constexpr int kAutoCellsPerThread = 2;
constexpr int autoCellsAcross(int bytes) {
  return bytes == 2 ? 32 : 16;
}
// General tiles take cells where both groups span at least this many elements (the tiling
// grows each group to 64), else a tile of cells would be mostly empty; cells shifted into place
// where both span kMinShiftedCellGroup or more: they moved 1.16 to 1.61x the best other kernel
// where both groups were 72 or more long and 0.02 to 0.55x where one was 38 or shorter (H200),
// and a transpose of 52-byte rows 1873 GB/s against the tiled kernel's 1186 (H100).
constexpr std::int64_t kMinCellGroup = 64;
constexpr std::int64_t kMinShiftedCellGroup = 48;
// Cells' groups grow past a tile's side until they fill this much of the tiles they cover.
constexpr double kMinCellFill = 0.875;
// Cells shifted into place take tensors of this many bytes or more: a tile of them carries 32
// KiB, and fewer than 256 tiles leave most of the block slots idle (2049 x 2049 bytes transposed,
// 153 tiles: 711 GB/s in cells, 817 through the tiled kernel's 64 x 64 tiles; H100).
constexpr std::int64_t kMinShiftedCellsBytes = std::int64_t{8} << 20;
// The narrow kernel keeps a chunk of every plane in shared memory; past this many planes the
// chunks get too short for whole vectors to pay.
constexpr std::int64_t kMaxNarrow = 64;
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
constexpr std::int64_t kSectorBytes = 32;
constexpr int kMaxAlignedTile = 32;
constexpr double kMaxAlignedReads = 1.5;
constexpr double kMinAlignedColumnFill = 0.75;
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
// The narrow kernel's accesses by default: 16 bytes from 16-byte boundaries, where planes of an
// odd width or an offset source start runs inside them, shifted into place. Its transposes moved
// 1.04 to 2.4x faster than in the widest whole vectors the planes allowed (14128181 x 19 u8:
// 2333 GB/s against 990 in single bytes; 22369621 x 6 f16 2885 against 1864 in single halves;
// 13421773 x 5 f32 2973 against 2812), and as fast where those were 16 bytes wide (within 1 %;
// H100). In 16-byte vectors, swizzled where that pays, the planar side meets 4 words a bank or
// fewer for 2 to 64 planes of any element size.
constexpr int kNarrowVectorBytes = 16;
constexpr int kNarrowBlock = 256;
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
// The packed kernel's blocks: 512 threads hold 8 positions each of a 4096-element tile, two
// blocks an SM at 64 registers; each block walks its tiles, a wave of the device.
constexpr int kPackedBlock = 512;
constexpr int kPackedWaves = 1;
// Elements in one tensor at most: far past any device's memory, and safe from overflow.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;

enum class Kind {
  Naive,
  Simplified,
  Movement,
  Tiled,
  TiledPairs,
  TiledWide,
  Narrow,
  General,
  Packed,
  Auto
};

std::string kindName(Kind kind) {
  switch (kind) {
    case Kind::Naive: return "naive";
    case Kind::Simplified: return "simplified";
    case Kind::Movement: return "movement";
    case Kind::Tiled: return "tiled";
    case Kind::TiledPairs: return "tiled_half2";
    case Kind::TiledWide: return "tiled_wide";
    case Kind::Narrow: return "narrow";
    case Kind::General: return "general";
    case Kind::Packed: return "packed";
    case Kind::Auto: break;
  }
  return "auto";
}

// The tiled kernels' `stores`: the same choice in each, over its own units and tiles.
ParamSpec storesParam(Kind kind) {
  const bool tiled = kind == Kind::Tiled;
  const std::string units = tiled ? "elements" : kind == Kind::TiledPairs ? "pairs" : "words";
  const std::string windows =
      tiled ? "four tiles down a column and the tile above them, and writes each destination "
              "row's windows from tile-wide boundaries of the destination (tiles of 16 or 32)"
            : "four windows of " + std::string(kind == Kind::TiledPairs ? "32 pairs" : "16 words") +
                  " (128 bytes) of 64 destination rows and the window above them, and writes "
                  "each destination row's " +
                  units + " from 128-byte boundaries (" +
                  (kind == Kind::TiledPairs ? "tile_size, rows_per_block and padding"
                                            : "cells_across and cells_per_thread") +
                  " do not apply)";
  const std::string when =
      tiled ? "auto, with tiles of 16 or 32 (the auto variant then takes 32 for 4-byte elements, "
              "16 for 8-byte ones), is aligned for 4- and 8-byte elements"
            : "auto is aligned";
  return autoChoiceParam(
      "stores", ParamRole::Launch, {"tile", "aligned"}, "",
      "where a block's stores start: tile writes each destination row's " + units +
          " of the tile, which straddle a 32-byte sector at each end when destination rows do "
          "not start on one; aligned reads " +
          windows + ". " + when +
          " where destination rows are not whole sectors, the source's rows and columns fill "
          "the tall tiles and they fill a wave of the device");
}

std::vector<ParamSpec> params(Kind kind) {
  // The narrow kernel's own example: NCHW to NHWC with 3 channels; the general one's: a full
  // reversal, whose destination's innermost dimension is 3 long; the packed one's: a reversal
  // whose sides' innermost dimensions are 49 and 5 long.
  const bool narrow = kind == Kind::Narrow, general = kind == Kind::General,
             packed = kind == Kind::Packed;
  std::vector<ParamSpec> specs{
      listParam("shape", ParamRole::Problem, 1, std::int64_t{1} << 31, permute::kMaxDims,
                narrow    ? "16,3,512,512"
                : general ? "3,4096,4096"
                : packed  ? "5,273913,7,7"
                          : "64,512,512",
                "elements", "sizes of the source's dimensions, outermost first"),
      listParam("perm", ParamRole::Problem, 0, permute::kMaxDims - 1, permute::kMaxDims,
                narrow    ? "0,2,3,1"
                : general ? "2,1,0"
                : packed  ? "2,3,1,0"
                          : "0,2,1",
                "", "destination dimension i is source dimension perm[i], as x.permute(perm)"),
      choiceParam("dtype", ParamRole::Problem, {"f32", "f16", "bf16", "f64", "u8"},
                  kind == Kind::TiledPairs  ? "f16"
                  : kind == Kind::TiledWide ? "u8"
                                            : "f32",
                  "", "element type; a permutation moves its bytes unchanged"),
      integerParam("offset", ParamRole::Problem, 0, 15, "0", "elements",
                   "the source starts this many elements into its buffer, as a view into a "
                   "larger tensor does; wide accesses need their width's alignment"),
  };
  if (kind == Kind::Naive || kind == Kind::Simplified || kind == Kind::Movement)
    specs.push_back(integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads",
                                 "threads per block", 32));
  if (kind == Kind::General) {
    specs.push_back(choiceParam("block_size", ParamRole::Launch, {"128", "256", "512", "1024"},
                                "256", "threads",
                                "threads per block; a block moves a tile at once (tiles of "
                                "8-byte cells take 256 threads for bytes, 512 for halves)"));
    specs.push_back(autoChoiceParam(
        "access", ParamRole::Launch, {"elements", "words", "cells"}, "",
        "how a tile moves 1- and 2-byte elements: one at a time, in 4-byte words or in 8 x 8-byte "
        "cells (either shifted into place where rows start on no word); auto takes cells where "
        "both groups are 64 or more long and rows start on words, else shifted cells where both "
        "of their own groups are 48 or more long, one of them fills its side of the tile and the "
        "tensor is 8 MiB or more, else aligned words, else shifted words for bytes in columns of "
        "8 or more"));
  }
  if (kind == Kind::Packed) {
    specs.push_back(choiceParam("block_size", ParamRole::Launch, {"128", "256", "512"}, "512",
                                "threads",
                                "threads per block; each holds where its positions of a tile "
                                "lie, up to 8 of them"));
    specs.push_back(choiceParam("tile_elements", ParamRole::Launch, {"512", "1024", "2048", "4096"},
                                "4096", "elements",
                                "most elements a tile holds, at most 8 per thread: larger tiles "
                                "give longer runs on both sides and cost more registers"));
  }
  if (kind == Kind::Narrow) {
    specs.push_back(choiceParam("block_size", ParamRole::Launch, {"64", "128", "256", "512"}, "256",
                                "threads",
                                "threads per block; a block moves 4 vectors per thread of "
                                "each chunk"));
    specs.push_back(autoChoiceParam(
        "swizzle", ParamRole::Launch, {"on", "off"}, "",
        "whether the chunk's vectors are swizzled within each 128-byte row of shared memory, so "
        "that the planar side's lanes, narrow vectors apart, spread over the banks (bank_ways "
        "says how many words a bank serves); auto swizzles where that cuts 8 or more to half or "
        "less in 16-byte vectors, 16 or more to an eighth in 8-byte ones"));
  }
  if (kind == Kind::Movement)
    specs.push_back(autoChoiceParam(
        "walk", ParamRole::Launch, {"units", "rows"}, "",
        "how each unit finds its source: units divides its destination offset by every "
        "destination stride; rows has each lane of a warp find where one destination row (a run "
        "along the destination's innermost dimension) starts and hands it to that row's units by "
        "a shuffle, a division a unit whatever the rank. auto takes rows for units of 1 or 2 "
        "bytes, 4 dimensions or more and rows of 5 units or more"));
  if (kind == Kind::Movement || kind == Kind::Narrow)
    specs.push_back(autoChoiceParam(
        "movement_size", ParamRole::Launch, {"1", "2", "4", "8", "16"}, "bytes",
        kind == Kind::Movement
            ? "bytes moved per access when the innermost dimension stays innermost; auto is the "
              "widest the shape allows"
            : "bytes per global access, on both sides, from boundaries of that many bytes: a "
              "run that starts or ends inside an access (planes of an odd width, an offset "
              "source) takes it whole on loads and in part on stores; auto is 16"));
  if (kind == Kind::TiledWide) {
    specs.push_back(autoChoiceParam(
        "cells_across", ParamRole::Launch, {"16", "32"}, "cells",
        "cells along a tile's source rows, a thread each (a block is 16 rows of them): 32 make "
        "each warp access 256 bytes of one row; auto is 32 for 16-bit elements, 16 for bytes"));
    specs.push_back(autoChoiceParam(
        "cells_per_thread", ParamRole::Launch, {"1", "2", "4"}, "cells",
        "cells a thread loads before it stores any, one above the other: more bytes in flight "
        "and a taller tile, as long as the tile fits in 48 KiB of shared memory; auto is 2"));
  }
  if (kind == Kind::Tiled || kind == Kind::TiledPairs) {
    specs.push_back(choiceParam("tile_size", ParamRole::Launch, {"16", "32", "64"}, "64",
                                "elements", "edge of the square tile a block moves at once"));
    specs.push_back(choiceParam("rows_per_block", ParamRole::Launch, {"1", "2", "4", "8", "16"},
                                "8", "threads",
                                "threads along a tile's rows; each walks tile_size / "
                                "rows_per_block of them"));
    specs.push_back(choiceParam("padding", ParamRole::Launch, {"on", "off"}, "on", "",
                                "a spare column in the shared tile, so that reading it by "
                                "column does not hit one memory bank 32 times"));
  }
  if (kind == Kind::Tiled || kind == Kind::TiledPairs || kind == Kind::TiledWide)
    specs.push_back(storesParam(kind));
  return specs;
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

// How far into its allocation the source starts; cudaMalloc aligns the allocations themselves.
std::int64_t offsetBytes(const ParamSet& p) {
  return p.getInt("offset") * elementBytes(p);
}

// tiled_wide's tile: cells across and cells a thread, as given or auto.
struct CellShape {
  int across = 16, perThread = 1;
};

CellShape cellShapeOf(const ParamSet& p, int bytes) {
  const auto given = [&](const char* name) {
    return p.has(name) && !p.isAuto(name) ? std::optional<int>(static_cast<int>(p.getInt(name)))
                                          : std::nullopt;
  };
  return {given("cells_across").value_or(autoCellsAcross(bytes)),
          given("cells_per_thread").value_or(kAutoCellsPerThread)};
}

// `batch` row-major rows x cols matrices: the 2-D (1,0) or batched (0,2,1) transposes.
struct BatchTranspose {
  std::int64_t batch = 1, rows = 0, cols = 0;
};

std::optional<BatchTranspose> asBatchTranspose(const Permutation& s) {
  if (s.shape.size() == 2 && s.perm == std::vector<int>{1, 0})
    return BatchTranspose{1, s.shape[0], s.shape[1]};
  if (s.shape.size() == 3 && s.perm == std::vector<int>{0, 2, 1})
    return BatchTranspose{s.shape[0], s.shape[1], s.shape[2]};
  return std::nullopt;
}

// Whether tiled_wide's cells fit: 1- or 2-byte elements, both sides whole cells (8 bytes of
// rows), the source 8-byte aligned.
bool cellsFit(const BatchTranspose& t, int bytes, std::int64_t sourceOffsetBytes) {
  if (bytes > 2) return false;
  const int side = permute::cell::side(bytes);
  return t.rows % side == 0 && t.cols % side == 0 && sourceOffsetBytes % 8 == 0;
}

// Aligned stores' tile: 32 wide for 4-byte elements, 16 for 8-byte ones, so that each warp's
// store is 128 bytes of one row.
int alignedTile(int bytes) {
  return bytes >= 8 ? 16 : 32;
}

// What aligned stores read for each unit a destination row has (elements, or words of cells):
// each column of tiles in kAlignedTall windows and the one above them, the last filled as the
// rows allow.
double alignedReads(const permute::TiledLaunch& l) {
  return static_cast<double>(l.tallRows() * (l.kAlignedTall + 1) * l.alignedWindow()) /
         static_cast<double>(l.alignedUnits());
}

// Aligned stores where the destination's rows (the source's columns) are not whole sectors, for
// 4- and 8-byte elements, cells and pairs, unless the source has too few rows to fill the tall
// tiles, too few columns to fill the tiles across ((5, 5667, 37) with (0, 2, 1) in f32 lost 18 %),
// or the tall tiles do not fill a wave of the device ((1097, 955) f32 lost 12 %).
bool alignedStoresPay(permute::TiledLaunch l, int tile, const DeviceInfo& device) {
  l.tile = tile;
  l.alignedStores = true;
  const std::int64_t across = (l.cols + tile - 1) / tile * tile;
  return (l.cells || l.pairs || (l.elementBytes >= 4 && tile <= kMaxAlignedTile)) &&
         l.rows * l.elementBytes % kSectorBytes != 0 && alignedReads(l) <= kMaxAlignedReads &&
         static_cast<double>(l.cols) / static_cast<double>(across) >= kMinAlignedColumnFill &&
         l.tiles() * l.threadsPerBlock() >=
             static_cast<std::int64_t>(device.smCount) * device.maxThreadsPerSm;
}

bool innermostMoves(const Permutation& s) {
  return s.perm.back() != static_cast<int>(s.shape.size()) - 1;
}

// A permutation that keeps its innermost dimension, in units of whole rows where a row is 2, 4
// or 8 bytes and the source starts on one: the rows move as elements, and the innermost
// dimension of what is left moves, so tiles can take it.
struct Rows {
  Permutation perm;
  int bytes = 0;
};

std::optional<Rows> asRows(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes) {
  if (innermostMoves(s) || s.shape.size() < 2) return std::nullopt;
  const std::int64_t rowBytes = s.shape.back() * bytes;
  if ((rowBytes != 2 && rowBytes != 4 && rowBytes != 8) || sourceOffsetBytes % rowBytes != 0)
    return std::nullopt;
  const int unit = static_cast<int>(rowBytes);
  return Rows{permute::simplify(permute::inMovementUnits(s, bytes, unit)), unit};
}

// General tiles of a permutation, in the tile size for its element size.
permute::GeneralTiling tilingOf(const Permutation& s, int bytes) {
  return permute::generalTiling(s, permute::generalTileElements(bytes));
}

// Bytes a general tile carries where both groups are shorter than its sides: a tile that carries
// little costs its offsets and barriers for few bytes.
std::int64_t tileCarriedBytes(const permute::GeneralTiling& g, int bytes) {
  return std::min<std::int64_t>(g.inExtent, g.tileIn) *
         std::min<std::int64_t>(g.outExtent, g.tileOut) * bytes;
}

// Cells' tiles, larger than the elements' ones, with groups as long as their sides and filling
// most of the tiles they cover: (72, 6, 10, 62137) with (2, 3, 1, 0) takes columns of 6 x 72
// instead of 72 (811 -> 1783 GB/s, u8, H100).
permute::GeneralTiling cellTiling(const Permutation& s, int bytes) {
  const int in = permute::GeneralLaunch::cellTileIn(bytes);
  const int out = permute::GeneralLaunch::cellTileOut(bytes);
  permute::GeneralTiling g =
      permute::generalTiling(s, permute::generalTileElements(bytes), in, out, kMinCellFill);
  g.tileIn = in;
  g.tileOut = out;
  return g;
}

// Whether cells shifted into place pay (kMinShiftedCellGroup, kMinShiftedCellsBytes): judged on
// their own tiling, whose groups may differ from the elements' (an in group grown toward a cells'
// tile's 128 bytes may take the dimension the out group had grown into), and only where a group
// spans its side of the tile.
bool shiftedCellsPay(const Permutation& s, int bytes) {
  if (bytes > 2 || s.elements() * bytes < kMinShiftedCellsBytes) return false;
  const permute::GeneralTiling g = cellTiling(s, bytes);
  return std::min(g.inExtent, g.outExtent) >= kMinShiftedCellGroup &&
         (g.inExtent >= g.tileIn || g.outExtent >= g.tileOut);
}

enum class Access { Elements, Words, Cells };

// Whether general tiles of bytes or halves fit cells of 8-byte rows that start on words, with
// both groups filling a tile's side (kMinCellGroup).
bool alignedCellsFit(const permute::GeneralTiling& g, int bytes, std::int64_t sourceOffsetBytes) {
  return bytes <= 2 && std::min(g.inExtent, g.outExtent) >= kMinCellGroup &&
         permute::generalCellsFit(g, bytes, sourceOffsetBytes);
}

// How auto has general tiles move their units: cells of 8-byte rows where both groups fill a
// tile's side and rows start on words, else cells shifted into place where they pay (519, 4, 42,
// 6, 5, 46 with (0, 5, 4, 3, 2, 1) in f16: 2588 GB/s against 2052 in aligned pairs, H100), else
// aligned words, else words shifted into place for bytes in columns of two words or more
// (kMinShiftedColumn), else elements.
Access autoAccess(const Permutation& s, const permute::GeneralTiling& g, int bytes,
                  std::int64_t sourceOffsetBytes) {
  if (bytes >= 4) return Access::Elements;
  if (alignedCellsFit(g, bytes, sourceOffsetBytes) || shiftedCellsPay(s, bytes))
    return Access::Cells;
  if (permute::generalWordsFit(g, bytes, sourceOffsetBytes)) return Access::Words;
  return bytes == 1 && g.outExtent >= kMinShiftedColumn ? Access::Words : Access::Elements;
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
  const permute::GeneralTiling g = cellTiling(s, 1);
  return std::min(g.inExtent, g.outExtent) >= kMinShiftedCellGroup && g.inExtent < g.tileIn &&
         g.outExtent < g.tileOut;
}

// The share of its tiles' elements a general tiling fills.
double tileFill(const permute::GeneralTiling& g) {
  return static_cast<double>(g.inExtent) / static_cast<double>(g.tilesIn() * g.tileIn) *
         static_cast<double>(g.outExtent) / static_cast<double>(g.tilesOut() * g.tileOut);
}

// The source elements spanned by the destination's first `window` elements: the dimensions the
// destination runs along inside it, each at its source stride.
std::int64_t sourceSpanWithin(const permute::GeneralTiling& g, std::int64_t window) {
  std::int64_t span = 1;
  const auto add = [&](const permute::GeneralTiling::Axis* axes, int rank) {
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
bool walkBeatsSparseTiles(const permute::GeneralTiling& g, int bytes,
                          std::int64_t sourceOffsetBytes) {
  if (bytes < 2 || tileFill(g) >= kMinWalkTileFill || alignedCellsFit(g, bytes, sourceOffsetBytes))
    return false;
  const std::int64_t reuse = g.in[0].dstStride, sourceStep = g.out[0].srcStride * bytes;
  return std::min(reuse, sourceSpanWithin(g, reuse) * bytes / kSectorBytes) <= kNearReuse ||
         sourceStep <= kDenseSourceStepBytes;
}

// Whether general tiles' columns would be short while the destination goes on along a
// dimension the source holds close together (kShortColumnBytes).
bool shortColumnsOverSourceRuns(const Permutation& s, const permute::GeneralTiling& g, int bytes) {
  const int rank = static_cast<int>(s.shape.size());
  const int next = rank - 1 - g.outRank;  // the destination's dimension after the group
  if (g.outExtent * bytes > kShortColumnBytes || next < 0) return false;
  std::int64_t sourceStride = 1;
  for (int d = s.perm[static_cast<std::size_t>(next)] + 1; d < rank; ++d)
    sourceStride *= s.shape[static_cast<std::size_t>(d)];
  return sourceStride * bytes <= kShortColumnBytes;
}

// Waves of the device's block slots the narrow kernel's chunks fill in its default launch.
double narrowWaves(const BatchTranspose& t, int bytes, std::int64_t sourceOffsetBytes,
                   const DeviceInfo& device) {
  permute::NarrowLaunch l;
  l.batch = t.batch;
  l.planarSource = t.rows <= t.cols;
  l.narrow = std::min(t.rows, t.cols);
  l.wide = std::max(t.rows, t.cols);
  l.elementBytes = bytes;
  l.vectorBytes = kNarrowVectorBytes;
  l.sourceHead = static_cast<int>(sourceOffsetBytes % kNarrowVectorBytes) / bytes;
  l.block = kNarrowBlock;
  return static_cast<double>(l.chunks()) * l.block /
         (static_cast<double>(device.smCount) * device.maxThreadsPerSm);
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
constexpr std::int64_t kMinPackedBytes = std::int64_t{32} << 20;
constexpr std::int64_t kMinPackedRunBytes = 64;
constexpr std::int64_t kMaxShortSideBytes = 48;
constexpr std::int64_t kMinPackedSourceRunBytes = 4;

// The shorter of a packed tile's runs in bytes, 0 where no packed tiling exists.
std::int64_t packedRunBytes(const Permutation& s, int bytes) {
  const auto p = permute::packedTiling(s, bytes);
  return p ? std::min(p->runIn, p->runOut) * bytes : 0;
}

bool packedRunsLong(const Permutation& s, int bytes) {
  return packedRunBytes(s, bytes) >= kMinPackedRunBytes;
}

// Planes to channels last with more planes than the narrow kernel takes: tiles leave the
// destination's rows of kMaxNarrow to kMaxPackedPlanes elements straddling sectors where they are
// no whole sectors, while a packed tile holds whole rows and writes them as one run. 128 MiB
// transposes (H100): bytes at 65, 84, 100 and 127 planes 1.18 to 2.3x (65 x 2064888: 641 -> 1499
// GB/s), f32 1.31 to 1.48x (100 x 335544: 1830 -> 2402), f64 at 65 and 127 1.19 and 1.20x; rows
// of whole sectors kept tiles (f64 at 84 and 100 within 2 %, bytes at 160 planes 2197 against
// 1469), halves keep shifted cells (84 and 127 planes: 2223 and 2084 against 1978 and 1908), and
// a 54 MiB one lost (95 x 73920 f64: 2238 -> 2077). Bytes from 49 planes, where the narrow
// kernel does not take them: (51, 5263440) 513 -> 1622 GB/s, (63, 4260880) 628 -> 1594.
constexpr std::int64_t kMaxPackedPlanes = 128;
constexpr std::int64_t kMinPackedTransposeBytes = std::int64_t{64} << 20;
bool packedTransposePays(const Permutation& s, const BatchTranspose& t, int bytes) {
  const std::int64_t planes = t.rows;
  const std::int64_t fewest = bytes == 1 ? kMaxShortSideBytes : kMaxNarrow;
  return t.rows <= t.cols && planes > fewest && planes <= kMaxPackedPlanes && bytes != 2 &&
         planes * bytes % kSectorBytes != 0 && t.cols >= kMinNarrowWide &&
         s.elements() * bytes >= kMinPackedTransposeBytes && permute::packedTiling(s, bytes);
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
// walk (1616 against 1359).
constexpr std::int64_t kMinPackedRowRunBytes = 128;
constexpr std::int64_t kShortRowBytes = 16;
constexpr std::int64_t kFarRowDown = 4096;
bool packedRowsPay(const Permutation& s, int bytes) {
  const int rank = static_cast<int>(s.shape.size());
  if (rank < 3 || s.shape.back() * bytes >= kShortRowBytes ||
      s.elements() * bytes < kMinPackedBytes)
    return false;
  std::int64_t nextRowDown = 1;  // the destination's stride of the source's dimension outside rows
  for (int j = rank - 1; s.perm[static_cast<std::size_t>(j)] != rank - 2; --j)
    nextRowDown *= s.shape[static_cast<std::size_t>(s.perm[static_cast<std::size_t>(j)])];
  return nextRowDown > kFarRowDown && packedRunBytes(s, bytes) >= kMinPackedRowRunBytes;
}

// Whether packed tiles beat the general tiles or the walk auto would take otherwise.
bool packedPays(const Permutation& s, const permute::GeneralTiling& g, int bytes, Kind otherwise) {
  if (s.elements() * bytes < kMinPackedBytes) return false;
  const std::int64_t side = std::min(g.inExtent, g.outExtent);
  const bool shortSide =
      otherwise == Kind::General && side >= 2 && side * bytes <= kMaxShortSideBytes;
  const bool shortByteColumns =
      otherwise == Kind::General && bytes == 1 && g.outExtent >= 2 && g.outExtent < kMinCellGroup;
  const bool byteWalk = otherwise == Kind::Movement && bytes == 1 &&
                        std::min<std::int64_t>(g.inExtent, g.tileIn) >= kMinPackedSourceRunBytes;
  return (shortSide || shortByteColumns || byteWalk) && packedRunsLong(s, bytes);
}

// Rows that stay innermost: general tiles over rows of 2, 4 or 8 bytes, else the walk or packed
// tiles. Small byte tiles without aligned words or well filled: the walk. Transposes with both
// sides 32 or more: the narrow kernel for a side of 64 or less where it pays, else the walk for 47
// planes or fewer to channels last, else packed tiles for 65 (bytes: 49) to 128 planes to
// channels last, else cells, pairs of halves, shifted cells or words, else the tiled kernel. A
// shorter side: the narrow kernel, else general tiles for 8 planes or more in words or wide
// elements, else the walk. Any other permutation: general tiles unless short columns or sparse
// tiles lose to the walk, either one packed tiles where they pay. H100, H200 (PERFORMANCE.md).
Kind autoKind(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes,
              const DeviceInfo& device) {
  if (!innermostMoves(s)) {
    const auto rows = asRows(s, bytes, sourceOffsetBytes);
    if (rows &&
        tileCarriedBytes(tilingOf(rows->perm, rows->bytes), rows->bytes) >= kMinGeneralTileBytes)
      return Kind::General;
    return !rows && packedRowsPay(s, bytes) ? Kind::Packed : Kind::Movement;
  }
  const permute::GeneralTiling g = tilingOf(s, bytes);
  const auto t = asBatchTranspose(s);
  const bool words = permute::generalWordsFit(g, bytes, sourceOffsetBytes);
  if (bytes == 1 && smallByteTiles(s) && (!words || tileFill(g) < kMinWalkTileFill))
    return Kind::Movement;
  if (!t) {
    const Kind tilesOrWalk = tileCarriedBytes(g, bytes) >= kMinGeneralTileBytes &&
                                     !shortColumnsOverSourceRuns(s, g, bytes) &&
                                     !walkBeatsSparseTiles(g, bytes, sourceOffsetBytes)
                                 ? Kind::General
                                 : Kind::Movement;
    return packedPays(s, g, bytes, tilesOrWalk) ? Kind::Packed : tilesOrWalk;
  }
  const std::int64_t wide = std::max(t->rows, t->cols), planes = std::min(t->rows, t->cols);
  const bool planar = t->rows <= t->cols;  // planes to channels last
  const bool narrow = wide >= kMinNarrowWide;
  const int whole = permute::narrowVectorBytes(wide, bytes, sourceOffsetBytes);
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
    if (general) return Kind::General;
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

void addGrid(ParamSet& derived, int grid, int block, const DeviceInfo& device) {
  const ParamSet described = describeGrid(grid, block, device);
  for (const auto& [name, value] : described.values()) derived.set(name, value);
}

// A launch description run on the buffers enqueue() is given.
template <typename Launch>
PermuteLauncher launcherOf(const Launch& l, void (*run)(const Launch&, cudaStream_t)) {
  return [l, run](const void* src, void* dst, cudaStream_t stream) {
    Launch launch = l;
    launch.src = src;
    launch.dst = dst;
    run(launch, stream);
  };
}

// The movement kernel's plan: the simplified permutation in units of the widest access that the
// shape, the source's offset and movement_size allow.
struct MovementPlan {
  Permutation plan;
  int unitBytes = 1;
  // Units along the destination's innermost dimension: the row walk's rows.
  std::int64_t row() const { return plan.shape[static_cast<std::size_t>(plan.perm.back())]; }
};

MovementPlan movementPlan(const ParamSet& p, const Permutation& s, int bytes) {
  const bool forced = p.has("movement_size") && !p.isAuto("movement_size");
  MovementPlan m;
  m.unitBytes = permute::movementSize(s, bytes, static_cast<std::uintptr_t>(offsetBytes(p)), 0,
                                      forced ? static_cast<int>(p.getInt("movement_size")) : 16);
  m.plan = permute::inMovementUnits(s, bytes, m.unitBytes);
  return m;
}

// The row walk where the units are bytes or halves and the destination has 4 dimensions or more:
// there the walk by units spends most of its time dividing, and the row walk moved 1.00 to 1.34x
// of it on 13 random cases ((24, 5, 2301, 162, 3) with (2, 0, 1, 4, 3) in u8: 1392 -> 1859 GB/s;
// (5, 23310, 3, 96, 3) with (2, 1, 4, 3, 0) in f16: 2084 -> 2435); with 3 dimensions it went
// both ways (0.94 to 1.09), in units of 8 and 16 bytes it lost 1 % (H100).
constexpr int kMaxRowWalkUnitBytes = 2;
constexpr std::size_t kMinRowWalkRank = 4;
bool rowWalkPays(const MovementPlan& m) {
  return m.row() >= permute::kMinWalkRow && m.unitBytes <= kMaxRowWalkUnitBytes &&
         m.plan.shape.size() >= kMinRowWalkRank;
}

// The generic kernels: naive over the dimensions as given, the others over simplified ones.
PermuteLauncher stridedLauncher(const ParamSet& p, const Permutation& original,
                                const Permutation& s, int bytes, Kind kind,
                                const DeviceInfo& device, ParamSet& derived) {
  permute::PermuteLaunch l;
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : 256;
  l.unitBytes = bytes;
  if (kind == Kind::Naive) {
    l.walk = permute::PermuteWalk::Naive;
    l.plan = original;
    l.grid = static_cast<int>((original.elements() + l.block - 1) / l.block);
    addGrid(derived, l.grid, l.block, device);
  } else {
    l.plan = s;
    if (kind == Kind::Movement) {
      const MovementPlan m = movementPlan(p, s, bytes);
      l.unitBytes = m.unitBytes;
      l.plan = m.plan;
      derived.set("movement_size_used", std::to_string(l.unitBytes));
      const bool rows =
          p.has("walk") && !p.isAuto("walk") ? p.get("walk") == "rows" : rowWalkPays(m);
      if (rows) l.walk = permute::PermuteWalk::Rows;
      derived.set("walk", rows ? "rows" : "units");
    }
    l.index32 = l.plan.elements() <= INT32_MAX;
    l.grid =
        gridForWaves(static_cast<std::uint64_t>((l.plan.elements() + permute::kStridedUnroll - 1) /
                                                permute::kStridedUnroll),
                     l.block, kWaves, device);
    addGrid(derived, l.grid, l.block, device);
    derived.set("simplified_shape", listText(s.shape));
    derived.set("simplified_perm", listText(s.perm));
    derived.set("index_bits", l.index32 ? "32" : "64");
  }
  return launcherOf(l, permute::launchPermute);
}

PermuteLauncher tiledLauncher(const ParamSet& p, const Permutation& s, int bytes, Kind kind,
                              const DeviceInfo& device, ParamSet& derived) {
  const BatchTranspose t = *asBatchTranspose(s);
  permute::TiledLaunch l;
  l.batch = t.batch;
  l.rows = t.rows;
  l.cols = t.cols;
  l.elementBytes = bytes;
  l.tile = p.has("tile_size")                      ? static_cast<int>(p.getInt("tile_size"))
           : std::min(t.rows, t.cols) >= kAutoTile ? kAutoTile
                                                   : kMinTiledSide;
  l.rowsPerBlock =
      p.has("rows_per_block") ? static_cast<int>(p.getInt("rows_per_block")) : kAutoRows;
  l.padding = !p.has("padding") || p.get("padding") == "on";
  l.pairs = kind == Kind::TiledPairs;
  l.cells = kind == Kind::TiledWide;
  // Aligned stores: the tiled kernel's own tiles of 16 or 32 (auto's where tile_size is not
  // given), cells' and pairs' tiles of kAlignedCellRows destination rows.
  const bool given = p.has("stores") && !p.isAuto("stores");
  const int alignedTileSize =
      kind == Kind::Tiled ? alignedTile(bytes) : permute::TiledLaunch::kAlignedCellRows;
  if (kind == Kind::Tiled && !given && !p.has("tile_size") &&
      alignedStoresPay(l, alignedTileSize, device))
    l.tile = alignedTileSize;
  l.alignedStores =
      given ? p.get("stores") == "aligned"
            : alignedStoresPay(l, kind == Kind::Tiled ? l.tile : alignedTileSize, device);
  derived.set("stores", l.alignedStores ? "aligned" : "tile");
  if (l.cells) {
    const CellShape shape = cellShapeOf(p, bytes);
    l.cellsAcross = shape.across;
    l.cellsPerThread = shape.perThread;
    l.tile = l.cellsAcross * permute::cell::side(bytes);
  }
  if (kind != Kind::Tiled && l.alignedStores) l.tile = alignedTileSize;
  l.index32 = s.elements() <= INT32_MAX;
  // One tile per block is the work: as many blocks as tiles, up to the waves' limit.
  l.grid = gridForWaves(static_cast<std::uint64_t>(l.tiles()) * l.threadsPerBlock(),
                        l.threadsPerBlock(), kWaves, device);
  addGrid(derived, l.grid, l.threadsPerBlock(), device);
  derived.set("transpose", std::to_string(t.batch) + " x " + std::to_string(t.rows) + " x " +
                               std::to_string(t.cols));
  derived.set("tiles", std::to_string(l.tiles()));
  if (l.cells) {
    const std::string side = std::to_string(permute::cell::side(bytes));
    derived.set("cell", side + " x " + side);
    if (!l.alignedStores) {
      derived.set("cells_across_used", std::to_string(l.cellsAcross));
      derived.set("cells_per_thread_used", std::to_string(l.cellsPerThread));
    }
  }
  derived.set("index_bits", l.index32 ? "32" : "64");
  return launcherOf(l, permute::launchTiledTranspose);
}

// General tiles' permutation and the unit they move: rows of 2, 4 or 8 bytes that stay
// innermost as elements of their own, else the elements.
struct GeneralUnits {
  Permutation perm;
  int bytes = 0;
  bool rows = false;
};

GeneralUnits generalUnits(const Permutation& simplified, int elementBytes,
                          std::int64_t sourceOffsetBytes) {
  const auto rows = asRows(simplified, elementBytes, sourceOffsetBytes);
  if (rows) return {rows->perm, rows->bytes, true};
  return {simplified, elementBytes, false};
}

// How general tiles move their units: as given, else as auto takes them.
Access generalAccess(const ParamSet& p, const Permutation& s, const permute::GeneralTiling& g,
                     int bytes) {
  if (p.has("access") && !p.isAuto("access")) {
    const std::string given = p.get("access");
    return given == "cells" ? Access::Cells : given == "words" ? Access::Words : Access::Elements;
  }
  return autoAccess(s, g, bytes, offsetBytes(p));
}

PermuteLauncher generalLauncher(const ParamSet& p, const Permutation& simplified, int elementBytes,
                                const DeviceInfo& device, ParamSet& derived) {
  const GeneralUnits units = generalUnits(simplified, elementBytes, offsetBytes(p));
  const Permutation& s = units.perm;
  const int bytes = units.bytes;
  if (units.rows) derived.set("row_bytes", std::to_string(bytes));
  permute::GeneralLaunch l;
  l.tiling = tilingOf(s, bytes);
  l.elementBytes = bytes;
  const Access access = generalAccess(p, s, l.tiling, bytes);
  l.cells = access == Access::Cells;
  if (l.cells) l.tiling = cellTiling(s, bytes);
  // Words aligned where the groups are whole words and the source starts on one, else shifted
  // into place, in tiles at least a word along each side.
  l.words = access == Access::Words && permute::generalWordsFit(l.tiling, bytes, offsetBytes(p));
  l.shifted = access == Access::Words && !l.words;
  if (l.shifted) {
    l.tiling.tileIn = std::max(l.tiling.tileIn, 4 / bytes);
    l.tiling.tileOut = std::max(l.tiling.tileOut, 4 / bytes);
  }
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : 256;
  // Shifted words count from the aligned word before the source: a few elements of headroom.
  l.index32 = s.elements() <= INT32_MAX - 8;
  const int threads = l.threadsPerBlock();
  l.grid =
      gridForWaves(static_cast<std::uint64_t>(l.tiling.tiles()) * threads, threads, kWaves, device);
  addGrid(derived, l.grid, threads, device);
  derived.set("simplified_shape", listText(s.shape));
  derived.set("simplified_perm", listText(s.perm));
  derived.set("groups", l.tiling.describe());
  derived.set("tile", std::to_string(l.tiling.tileOut) + " x " + std::to_string(l.tiling.tileIn));
  derived.set("access_bytes", std::to_string(l.cells ? 8 : l.words || l.shifted ? 4 : bytes));
  if (l.words || l.shifted) derived.set("words", l.shifted ? "shifted" : "aligned");
  if (l.cells)
    derived.set("cells",
                permute::generalCellsFit(l.tiling, bytes, offsetBytes(p)) ? "aligned" : "shifted");
  derived.set("tiles", std::to_string(l.tiling.tiles()));
  derived.set("index_bits", l.index32 ? "32" : "64");
  return launcherOf(l, permute::launchGeneralTiled);
}

// The packed tiles of a permutation for a launch's tile_elements.
std::optional<permute::PackedTiling> packedTilingOf(const ParamSet& p, const Permutation& s,
                                                    int bytes) {
  const int most = p.has("tile_elements") ? static_cast<int>(p.getInt("tile_elements"))
                                          : permute::kMaxPackedVolume;
  return permute::packedTiling(s, bytes, most);
}

PermuteLauncher packedLauncher(const ParamSet& p, const Permutation& s, int bytes,
                               const DeviceInfo& device, ParamSet& derived) {
  permute::PackedLaunch l;
  l.tiling = *packedTilingOf(p, s, bytes);
  l.elementBytes = bytes;
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : kPackedBlock;
  l.index32 = s.elements() <= INT32_MAX;
  // Each block works out its positions once, then walks tiles: a few waves of blocks.
  l.grid = gridForWaves(static_cast<std::uint64_t>(l.tiling.tiles()) * l.block, l.block,
                        kPackedWaves, device);
  addGrid(derived, l.grid, l.block, device);
  derived.set("simplified_shape", listText(s.shape));
  derived.set("simplified_perm", listText(s.perm));
  derived.set("packed", l.tiling.describe());
  derived.set("run_bytes_read", std::to_string(l.tiling.runIn * bytes));
  derived.set("run_bytes_written", std::to_string(l.tiling.runOut * bytes));
  derived.set("positions_per_thread", std::to_string(l.perThread()));
  derived.set("tiles", std::to_string(l.tiling.tiles()));
  derived.set("index_bits", l.index32 ? "32" : "64");
  return launcherOf(l, permute::launchPacked);
}

PermuteLauncher narrowLauncher(const ParamSet& p, const Permutation& s, int bytes,
                               const DeviceInfo& device, ParamSet& derived) {
  const BatchTranspose t = *asBatchTranspose(s);
  permute::NarrowLaunch l;
  l.batch = t.batch;
  l.planarSource = t.rows <= t.cols;
  l.narrow = std::min(t.rows, t.cols);
  l.wide = std::max(t.rows, t.cols);
  l.elementBytes = bytes;
  const bool forced = p.has("movement_size") && !p.isAuto("movement_size");
  l.vectorBytes = forced ? static_cast<int>(p.getInt("movement_size")) : kNarrowVectorBytes;
  l.sourceHead = static_cast<int>(offsetBytes(p) % l.vectorBytes) / bytes;
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : kNarrowBlock;
  l.swizzled =
      p.has("swizzle") && !p.isAuto("swizzle") ? p.get("swizzle") == "on" : l.swizzlePays();
  // Heads and the last vector's tail past the tensor stay within 32 bits.
  l.index32 = s.elements() + kNarrowVectorBytes <= INT32_MAX;
  l.grid = gridForWaves(static_cast<std::uint64_t>(l.chunks()) * l.block, l.block, kWaves, device);
  addGrid(derived, l.grid, l.block, device);
  derived.set("transpose", std::to_string(t.batch) + " x " + std::to_string(t.rows) + " x " +
                               std::to_string(t.cols));
  derived.set("direction", l.planarSource ? "planes to interleaved" : "interleaved to planes");
  derived.set("swizzled", l.swizzled ? "yes" : "no");
  derived.set("bank_ways", std::to_string(l.bankWays(l.swizzled)));
  derived.set("movement_size_used", std::to_string(l.vectorBytes));
  derived.set("shifted", l.shifted() ? "yes" : "no");
  derived.set("chunk_width", std::to_string(l.chunkWidth()));
  derived.set("index_bits", l.index32 ? "32" : "64");
  return launcherOf(l, permute::launchNarrowTranspose);
}

class PermuteVariant final : public Variant {
 public:
  PermuteVariant(Kind kind, std::string summary, std::string teaches)
      : Variant({"permute", kindName(kind), std::move(summary), std::move(teaches), params(kind),
                 "shape"}),
        kind_(kind) {}

  void check(const ParamSet& p) const override {
    const Permutation perm = permutationOf(p);
    permute::checkPermutation(perm);
    std::int64_t elements = 1;
    for (std::int64_t size : perm.shape) {
      if (elements > kMaxElements / size)
        throw paramError("shape", p.get("shape") + " has more than 2^40 elements");
      elements *= size;
    }
    const Permutation s = permute::simplify(perm);
    if (kind_ == Kind::Tiled || kind_ == Kind::TiledPairs) checkTiled(p, s);
    if (kind_ == Kind::TiledWide) checkCells(p, s);
    if (kind_ == Kind::Narrow) checkNarrow(p, s);
    if (kind_ == Kind::General) checkGeneral(p, s);
    if (kind_ == Kind::Packed) checkPacked(p, s);
    if (kind_ == Kind::Movement && !p.isAuto("movement_size")) checkMovement(p, s);
    if (kind_ == Kind::Movement && p.get("walk") == "rows") checkRowWalk(p, s);
  }

  std::unique_ptr<Workload> create(const ParamSet& p, const DeviceInfo& device) const override {
    const Permutation original = permutationOf(p);
    const DType dtype = *parseDType(p.get("dtype"));
    const int bytes = static_cast<int>(sizeOf(dtype));
    const Permutation s = permute::simplify(original);
    Kind kind = kind_;
    ParamSet derived;
    if (kind == Kind::Auto) {
      kind = autoKind(s, bytes, offsetBytes(p), device);
      derived.set("chosen", kindName(kind));
    }
    PermuteLauncher launch =
        kind == Kind::Tiled || kind == Kind::TiledPairs || kind == Kind::TiledWide
            ? tiledLauncher(p, s, bytes, kind, device, derived)
        : kind == Kind::Narrow  ? narrowLauncher(p, s, bytes, device, derived)
        : kind == Kind::General ? generalLauncher(p, s, bytes, device, derived)
        : kind == Kind::Packed  ? packedLauncher(p, s, bytes, device, derived)
                                : stridedLauncher(p, original, s, bytes, kind, device, derived);
    return std::make_unique<permute::PermuteWorkload>(original, dtype, p.getInt("offset"),
                                                      std::move(launch), std::move(derived));
  }

 private:
  // The (simplified) permutation as a batched transpose, which the transposing kernels need.
  static BatchTranspose requireTranspose(const Permutation& s, const std::string& kernelMoves) {
    auto t = asBatchTranspose(s);
    if (!t)
      throw paramError("perm", kernelMoves +
                                   " 2-D (1,0) and batched (0,2,1) transposes; this one "
                                   "simplifies to shape " +
                                   listText(s.shape) + ", perm " + listText(s.perm) +
                                   ": use movement or auto");
    return *t;
  }

  void checkTiled(const ParamSet& p, const Permutation& s) const {
    const auto t = requireTranspose(s, "tiles move");
    if (p.getInt("rows_per_block") > p.getInt("tile_size"))
      throw paramError("rows_per_block", p.get("rows_per_block") + " rows for a tile of " +
                                             p.get("tile_size") + "; allowed: at most tile_size");
    if (kind_ == Kind::Tiled && p.get("stores") == "aligned" &&
        p.getInt("tile_size") > kMaxAlignedTile)
      throw paramError("stores",
                       "aligned stores take tiles of 16 or 32; tile_size is " + p.get("tile_size"));
    if (kind_ != Kind::TiledPairs) return;
    if (elementBytes(p) != 2)
      throw paramError("dtype", "tiled_half2 moves pairs of 16-bit elements; allowed: f16, bf16");
    if (t.rows % 2 != 0 || t.cols % 2 != 0)
      throw paramError("shape",
                       "tiled_half2 needs both sides of the transpose even; this one "
                       "is " +
                           std::to_string(t.rows) + " x " + std::to_string(t.cols) + ": use tiled");
    if (offsetBytes(p) % 4 != 0)
      throw paramError("offset", "tiled_half2 reads pairs as 4-byte words, and a source " +
                                     p.get("offset") +
                                     " elements in is not 4-byte aligned; allowed: even offsets, "
                                     "or use tiled");
  }

  static void checkCells(const ParamSet& p, const Permutation& s) {
    const auto t = requireTranspose(s, "tiled_wide moves");
    const int bytes = elementBytes(p);
    if (bytes > 2)
      throw paramError("dtype",
                       "tiled_wide moves cells of 1- and 2-byte elements; allowed: u8, "
                       "f16, bf16, or use tiled");
    const int side = permute::cell::side(bytes);
    if (t.rows % side != 0 || t.cols % side != 0)
      throw paramError("shape", "tiled_wide moves cells of " + std::to_string(side) + " x " +
                                    std::to_string(side) + " " + p.get("dtype") +
                                    " elements, and the transpose is " + std::to_string(t.rows) +
                                    " x " + std::to_string(t.cols) + "; allowed: sides that are " +
                                    "multiples of " + std::to_string(side) + ", or use auto");
    const auto [across, stacked] = cellShapeOf(p, bytes);
    const int tileBytes = permute::cell::tileBytes(bytes, across, stacked);
    if (tileBytes > permute::cell::kMaxTileBytes) {
      std::string allowed;
      for (const int n : {1, 2, 4})
        if (permute::cell::tileBytes(bytes, across, n) <= permute::cell::kMaxTileBytes)
          allowed += (allowed.empty() ? "" : ", ") + std::to_string(n);
      throw paramError("cells_per_thread",
                       std::to_string(across) + " cells across and " + std::to_string(stacked) +
                           " a thread make a tile of " + std::to_string(tileBytes / 1024) +
                           " KiB of " + p.get("dtype") +
                           ", more than a block's 48 KiB of shared memory; allowed with " +
                           std::to_string(across) + " across: " + allowed);
    }
    if (offsetBytes(p) % 8 != 0)
      throw paramError("offset", "tiled_wide reads 8-byte rows, and a source " + p.get("offset") +
                                     " elements in is not 8-byte aligned; allowed: offsets of " +
                                     std::to_string(side) + " elements, or use auto");
  }

  static void checkGeneral(const ParamSet& p, const Permutation& s) {
    if (!innermostMoves(s) && !asRows(s, elementBytes(p), offsetBytes(p)))
      throw paramError("perm", "the innermost dimension stays innermost (simplified: shape " +
                                   listText(s.shape) + ", perm " + listText(s.perm) +
                                   ") in rows of " +
                                   std::to_string(s.shape.back() * elementBytes(p)) +
                                   " bytes; tiles take rows of 2, 4 or 8 bytes that start "
                                   "aligned, as elements: use movement or auto");
    if (!p.has("access") || p.isAuto("access") || p.get("access") == "elements") return;
    const GeneralUnits units = generalUnits(s, elementBytes(p), offsetBytes(p));
    const std::string unit = units.rows ? "rows of " + std::to_string(units.bytes) + " bytes"
                                        : p.get("dtype") + " elements";
    if (units.bytes > 2)
      throw paramError("access",
                       "words and cells carry 1- and 2-byte units, and these tiles "
                       "move " +
                           unit + "; allowed: elements or auto");
  }

  static void checkPacked(const ParamSet& p, const Permutation& s) {
    const std::int64_t most = p.getInt("tile_elements"), block = p.getInt("block_size");
    if (most > block * permute::kMaxPackedPerThread)
      throw paramError(
          "tile_elements",
          "tiles of " + p.get("tile_elements") + " elements need " + std::to_string(most / block) +
              " positions a thread of " + p.get("block_size") + ", more than the " +
              std::to_string(permute::kMaxPackedPerThread) + " a thread holds; allowed: " +
              std::to_string(block * permute::kMaxPackedPerThread) + " or fewer, or more threads");
    if (!packedTilingOf(p, s, elementBytes(p)))
      throw paramError("shape", "the simplified permutation (shape " + listText(s.shape) +
                                    ", perm " + listText(s.perm) +
                                    ") would need its innermost dimensions on both sides cut to "
                                    "fit a tile of " +
                                    p.get("tile_elements") +
                                    " elements; packed tiles cut one: use general or auto");
  }

  static void checkNarrow(const ParamSet& p, const Permutation& s) {
    const auto t = requireTranspose(s, "the narrow kernel moves");
    const std::int64_t narrow = std::min(t.rows, t.cols);
    if (narrow > kMaxNarrow)
      throw paramError("shape", "the transpose is " + std::to_string(t.rows) + " x " +
                                    std::to_string(t.cols) +
                                    "; the narrow kernel takes a "
                                    "side of at most " +
                                    std::to_string(kMaxNarrow) + ": use tiled or auto");
    const int bytes = elementBytes(p);
    if (!p.isAuto("movement_size") && p.getInt("movement_size") < bytes)
      throw paramError("movement_size", p.get("movement_size") +
                                            "-byte accesses are narrower than an element; "
                                            "allowed: " +
                                            std::to_string(bytes) + " to 16, or auto");
  }

  static void checkRowWalk(const ParamSet& p, const Permutation& s) {
    const MovementPlan m = movementPlan(p, s, elementBytes(p));
    if (m.row() < permute::kMinWalkRow)
      throw paramError("walk", "rows of " + std::to_string(m.row()) + " units (simplified shape " +
                                   listText(m.plan.shape) + ", perm " + listText(m.plan.perm) +
                                   ") are shorter than the " +
                                   std::to_string(permute::kMinWalkRow) +
                                   " a warp's lanes can hand out; allowed: units or auto");
  }

  static void checkMovement(const ParamSet& p, const Permutation& s) {
    const int bytes = elementBytes(p);
    const int forced = static_cast<int>(p.getInt("movement_size"));
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
    const int widest =
        permute::movementSize(s, bytes, static_cast<std::uintptr_t>(offsetBytes(p)), 0);
    if (forced > widest) throw misaligned(p, forced, widest);
  }

  static Error misaligned(const ParamSet& p, int forced, int widest) {
    return paramError("movement_size", "the source starts " + std::to_string(offsetBytes(p)) +
                                           " bytes into its buffer (offset " + p.get("offset") +
                                           "), so " + std::to_string(forced) +
                                           "-byte accesses would be misaligned; allowed: up to " +
                                           std::to_string(widest) + " or auto");
  }

  Kind kind_;
};

}  // namespace

void registerPermuteFamily(Registry& registry) {
  registry.addFamily("permute", "any permutation of up to 8 dimensions, transposes included");
  const auto add = [&](Kind kind, std::string summary, std::string teaches) {
    registry.addVariant(
        std::make_unique<PermuteVariant>(kind, std::move(summary), std::move(teaches)));
  };
  add(Kind::Naive, "one element per thread, every dimension, 64-bit indices",
      "Each thread turns its destination offset into a source offset by dividing through every "
      "dimension given, in 64-bit arithmetic: correct for any permutation, and as slow as its "
      "divisions and single-element scattered reads make it.");
  add(Kind::Simplified, "size-1 dimensions dropped, neighbours merged, 32-bit indices",
      "Dimensions of size 1 move nothing and dimensions that stay neighbours move as one: "
      "(64, 64, 128, 128) with (2, 3, 0, 1) is a (4096, 16384) transpose. Fewer dimensions mean "
      "fewer divisions per element, and 32-bit indices cheaper ones.");
  add(Kind::Movement, "simplified, and up to 16 bytes per access",
      "When the innermost dimension stays innermost, a run of it moves as one access of up to "
      "16 bytes: (32, 128, 16, 64) with (0, 2, 1, 3) moves rows of 64 elements, while "
      "(16, 3, 512, 512) with (0, 2, 3, 1) keeps nothing innermost. Force movement_size to see "
      "what each width is worth, and compare walk=units with walk=rows where units are bytes: "
      "dividing each unit's offset by every stride, or once a row, costs more than the loads.");
  add(Kind::Tiled, "transposes through shared-memory tiles",
      "A transpose reads rows and writes columns: one side is always scattered. A block reads a "
      "tile with coalesced row accesses into shared memory and writes it out with coalesced "
      "accesses along the other axis. Turn padding off and the tile's column reads hit one bank "
      "32 times; sweep tile_size and rows_per_block. Where the destination's rows do not start "
      "on 32-byte sectors (929 x 18059 f32), compare stores=tile with stores=aligned at "
      "tile_size=32.");
  add(Kind::TiledPairs, "tiled transposes moving 16-bit elements in pairs",
      "For f16 and bf16 each thread loads and stores two neighbouring elements as one 4-byte "
      "access, so a warp moves 128 bytes instead of 64; both sides of the transpose must be "
      "even. Where the destination's rows do not start on 32-byte sectors (8194 x 8192), "
      "compare stores=tile with stores=aligned.");
  add(Kind::TiledWide, "tiled transposes of bytes and halves in 8 x 8-byte cells",
      "A u8 transpose through tiles of single bytes moves 32 bytes per warp access. Here each "
      "thread loads a cell of 8 rows of 8 bytes (4 x 4 for f16), transposes it in registers "
      "with byte permutes and stores 8 destination rows of 8 bytes: every access of a warp is "
      "256 bytes, two rows of 128 with 16 cells across, one row with 32, on both sides. Compare "
      "it with tiled and tiled_half2 on the same transpose, and sweep cells_across and "
      "cells_per_thread; both sides must be whole cells. Where the destination's rows do not "
      "start on 32-byte sectors (8196 x 8192 f16), compare stores=tile with stores=aligned.");
  add(Kind::Narrow, "transposes with a short side, as NCHW <-> NHWC with 3 channels",
      "A (3, 262144) transpose fills a square tile 3 rows deep. Here a block takes a run of every "
      "plane, which together make one contiguous run of the interleaved side, and moves both "
      "with 16-byte accesses through shared memory: no access is scattered. Force "
      "movement_size to the element size to see what the vectors are worth. Planes of an odd "
      "width (19 x 3400001 bytes) start inside vectors: each run is read in the aligned vectors "
      "that cover it and its elements placed by their offset (shifted says so), where a kernel "
      "that needs whole vectors falls to single bytes. The planar side's "
      "lanes store their elements narrow vectors apart in shared memory: with 8 planes of 16-byte "
      "vectors all 32 in one bank (bank_ways says how many words a bank serves), so there the "
      "chunk's vectors are swizzled within each 128-byte row. Set swizzle off to see what the "
      "conflicts cost, and on where auto leaves it off to see what the swizzle's arithmetic "
      "costs.");
  add(Kind::General, "tiles for any permutation that moves the innermost dimension",
      "OneFlow and PyTorch tile only transposes of two axes; a full reversal or (0, 3, 1, 2) "
      "falls to a kernel that reads or writes one scattered element at a time. Here the "
      "source's innermost dimensions, taken together until they span a tile, are transposed "
      "against the destination's, whatever the rank: (3, 4096, 4096) reversed tiles 4096 "
      "against 3 x 4096, and both sides of every tile move along contiguous memory. Bytes and "
      "halves move in 8 x 8-byte cells where both groups are 64 or more long (shifted ones: 48 "
      "or more, the tensor 8 MiB or more), else in 4-byte "
      "words where the groups are whole words, and bytes in columns of 8 or more in words "
      "anyway. Where rows start anywhere (odd extents, a source at any offset), each row's "
      "aligned words are funnel-shifted into place with the next one; shifted cells then give "
      "each tile whole destination words (the rows just above the tile load too), so only a "
      "column's first and last words are stored in part, while shifted words store a column's "
      "ends one element at a time. Compare access=elements, words and cells to see what the "
      "shifts are worth. Rows of 2, 4 or 8 bytes that stay innermost move as elements "
      "of their own.");
  add(Kind::Packed, "tiles of whole dimensions from both sides, for short ones",
      "Tiles of two groups transpose the source's innermost dimensions against the "
      "destination's; where both are short and meet in a third, (5, 273913, 49) reversed, a "
      "tile's columns are 5 elements, each 1.4 MB from the next. Here a tile holds whole "
      "dimensions "
      "of both sides and a chunk of the one they share, 5 x 16 x 49, read in the source's order "
      "and written in the destination's: runs of 784 and 80 elements (run_bytes_read and "
      "run_bytes_written say how long). Each thread works out where its 8 positions of a tile "
      "lie once, so a tile costs an add and two accesses an element. Sweep tile_elements to see "
      "the runs grow with the tile, and compare it with general on the same shape.");
  add(Kind::Auto, "picks the kernel and says which",
      "Tiles for transposes whose sides are at least 32 long (the narrow kernel where one is 64 "
      "or shorter and it moves 16-byte vectors of 2-byte or wider elements, cells of 8-byte rows "
      "for bytes and halves where the sides are whole cells, pairs for even 16-bit ones, cells "
      "shifted "
      "into place in general tiles where the sides are 48 or more long, one fills its side of "
      "the tile and the tensor is 8 MiB or more, else general tiles in words for bytes), the "
      "movement kernel for byte tiles shorter than a tile of cells both ways whose rows start on "
      "no word or that fill less than 0.7 of their tiles, and for 32 to 47 planes of single "
      "elements to channels last, for a shorter side the narrow kernel where its vectors hold 4 "
      "elements or more (planes to channels last) or 2 or more and its "
      "planar side meets few words in a bank (channels last to planes), else general tiles "
      "from channels last with 8 or more channels, else the movement kernel; general tiles for "
      "any other permutation that moves the innermost dimension, the movement kernel where it "
      "stays, where a tile's columns would hold 16 bytes or fewer while the destination goes "
      "on along the source's rows, or where tiles of 2-, 4- and 8-byte elements would be mostly "
      "empty (but for aligned cells) and its walk reads the source's sectors again soon or "
      "densely; packed tiles from 32 MiB where general tiles would have a side of 48 bytes or "
      "fewer (columns of bytes: 63 or fewer), the walk would take rows of 3 to 15 bytes that "
      "stay innermost and come back to the source's next row down only after 4096 elements, or "
      "the walk would take bytes whose source runs 4 bytes or more, and from 64 MiB for 65 to "
      "128 planes of 1-, 4- or 8-byte elements to channels last whose rows are no whole 32-byte "
      "sectors (tiles would store each row straddling them; bytes from 49 planes). The result's "
      "chosen value says which ran.");
}

}  // namespace kwb
