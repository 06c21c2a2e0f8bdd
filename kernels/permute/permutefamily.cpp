// The permute family: any permutation of up to 8 dimensions, from one thread per element with
// 64-bit index arithmetic to simplified dimensions, 16-byte movements, tiled transposes and tiles
// for any permutation that moves the innermost dimension.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "core/error.h"
#include "kernels/launchgeometry.h"
#include "kernels/permute/generaltiled.h"
#include "kernels/permute/linetranspose.h"
#include "kernels/permute/narrowtranspose.h"
#include "kernels/permute/packedtranspose.h"
#include "kernels/permute/permuteauto.h"
#include "kernels/permute/permutelaunch.h"
#include "kernels/permute/permuteworkload.h"
#include "kernels/permute/planetranspose.h"
#include "kernels/permute/tiledtranspose.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

using permute::Access;
using permute::BatchTranspose;
using permute::Kind;
using permute::kMaxNarrow;
using permute::kMinTiledSide;
using permute::kNarrowBlock;
using permute::kNarrowVectorBytes;
using permute::kPlaneBlock;
using permute::kSectorBytes;
using permute::listText;
using permute::Permutation;
using permute::PermuteLauncher;

constexpr int kWaves = 32;
// Shifted narrow cells set up each warp in about 150 instructions (the batch's order copied
// behind a barrier, the span loop's bounds): a grid of 2 waves moves several spans a warp. With
// whole words stored without a branch, (512, 3, 50177) with (0, 2, 1) u8 moved 2584 -> 2776 GB/s
// (H200).
constexpr int kShiftedCellWaves = 2;
// The tiled kernel's tiles where tile_size is not given: 64 elements with 8 rows of threads where
// both sides fill one, else 32 (permute::kMinTiledSide).
constexpr int kAutoTile = 64;
constexpr int kAutoRows = 8;
// tiled_wide's tiles: 2 cells a thread, 32 across for 16- and 32-bit elements (a warp reads 256
// bytes of a row), 16 for bytes, where a wider tile of 2 cells a thread would not fit; the best
// measured on an H100 (docs/PERFORMANCE.md, permute, sixth pass), and for 4-byte elements on an
// H200 (thirty-seventh pass). Doubles take 4 cells a thread 16 across: tiles 128 rows tall, which
// moved (100, 335544) 1.10x as fast as 2 cells 32 across, the same elsewhere (H200). 16-bit
// elements take 1 cell a thread where DRAM feeds each SM more than kFastMemoryPerSm: on an H200
// (37 GB/s an SM) 2-D and batch transposes of f16 and bf16 moved 1.002-1.043x as fast (8192 x 8192
// 0.949 -> 0.955 of the copy ceiling, 3 x 4096 x 4096 0.944 -> 0.960; fortieth pass), where on an
// H100 (25 GB/s an SM) two of three moved 0.98x (sixth pass).
constexpr double kFastMemoryPerSm = 30e9;
constexpr int autoCellsAcross(int bytes) {
  return bytes == 1 || bytes == 8 ? 16 : 32;
}
constexpr int autoCellsPerThread(int bytes, bool fastMemory) {
  return bytes == 8 ? 4 : bytes == 2 && fastMemory ? 1 : 2;
}
bool fastMemory(const DeviceInfo& device) {
  return device.smCount > 0 && device.peakBandwidth / device.smCount > kFastMemoryPerSm;
}
// The packed kernel's blocks: 512 threads hold 8 positions each of a 4096-element tile, two
// blocks an SM at 64 registers; each block walks its tiles, a wave of the device.
constexpr int kPackedBlock = 512;
constexpr int kPackedWaves = 1;
// Elements in one tensor at most: far past any device's memory, and safe from overflow.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;

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
    case Kind::Planes: return "planes";
    case Kind::Lines: return "lines";
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
              "16 for 8-byte ones, but 32 where one tall tile holds each column: 65 to 97 "
              "source rows), is aligned for 4- and 8-byte elements"
            : "auto is aligned";
  return autoChoiceParam(
      "stores", ParamRole::Launch, {"tile", "aligned"}, "",
      "where a block's stores start: tile writes each destination row's " + units +
          " of the tile, which straddle a 32-byte sector at each end when destination rows do "
          "not start on one; aligned reads " +
          windows + ". " + when +
          " where destination rows are not whole sectors, the source's rows and columns fill "
          "the tall tiles (or one tall tile holds each column, more than half full) and they "
          "fill a wave of the device");
}

std::vector<ParamSpec> params(Kind kind) {
  // The narrow kernel's own example: NCHW to NHWC with 3 channels; the general one's: a full
  // reversal, whose destination's innermost dimension is 3 long; the packed one's: a reversal
  // whose sides' innermost dimensions are 49 and 5 long.
  const bool narrow = kind == Kind::Narrow, general = kind == Kind::General,
             packed = kind == Kind::Packed, planes = kind == Kind::Planes,
             lines = kind == Kind::Lines;
  std::vector<ParamSpec> specs{
      listParam("shape", ParamRole::Problem, 1, std::int64_t{1} << 31, permute::kMaxDims,
                narrow    ? "16,3,512,512"
                : general ? "3,4096,4096"
                : packed  ? "5,273913,7,7"
                : planes  ? "15978,84,100"
                : lines   ? "1677721,40"
                          : "64,512,512",
                "elements", "sizes of the source's dimensions, outermost first"),
      listParam("perm", ParamRole::Problem, 0, permute::kMaxDims - 1, permute::kMaxDims,
                narrow    ? "0,2,3,1"
                : general ? "2,1,0"
                : packed  ? "2,3,1,0"
                : lines   ? "1,0"
                          : "0,2,1",
                "", "destination dimension i is source dimension perm[i], as x.permute(perm)"),
      choiceParam("dtype", ParamRole::Problem, {"f32", "f16", "bf16", "f64", "u8"},
                  kind == Kind::TiledPairs                     ? "f16"
                  : kind == Kind::TiledWide || planes || lines ? "u8"
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
    specs.push_back(autoChoiceParam(
        "stores", ParamRole::Launch, {"tile", "aligned"}, "",
        "where a column's stores start, for units of 4 bytes or more and for cells: tile writes "
        "each destination column's elements of the tile, which straddle a 32-byte sector at each "
        "end where columns start inside one; aligned also reads the 32 bytes of rows before the "
        "tile and writes each column from the sector boundary at or before its first row, so "
        "every warp's store fills whole sectors. auto is aligned where columns start inside "
        "sectors, in tensors of the L2 cache's size or more: for elements where columns run 8 "
        "tiles or more and the in group spans 4 tiles or fills 95 % of its tiles; for cells of "
        "bytes where the in group spans 32 tiles or more and columns 1.5 tiles or more"));
    specs.push_back(autoChoiceParam(
        "tile_in", ParamRole::Launch, {"4", "8", "16", "32", "64", "128", "256"}, "units",
        "columns a tile holds, units of the in group (the source's contiguous run a tile's row "
        "reads); its rows fill the rest of the tile (4096 units, 2048 of 8 bytes, as many rows "
        "of any other length as 16 KiB hold). Not for cells, whose tiles are their own; auto sets "
        "the shorter group's side to 64 or its extent, for units of 4 bytes or more whose rows "
        "start inside sectors takes the sides the groups fill best, each 128 bytes or more, and "
        "for rows as units of their bytes takes the tile as tall as rows of 128 bytes leave it "
        "(tile says which)"));
  }
  if (kind == Kind::General || kind == Kind::Tiled || kind == Kind::TiledPairs ||
      kind == Kind::TiledWide)
    specs.push_back(autoChoiceParam(
        "tile_order", ParamRole::Launch, {"source", "destination"}, "",
        "the order the grid takes tiles in: one after another along the source's rows, or along "
        "the destination's. The blocks resident at once move consecutive tiles, so the order "
        "sets how long a stretch of each side's memory they cover together; auto takes the "
        "destination's where that makes the destination's stretches longer and leaves the "
        "source's 512 bytes or more"));
  if (kind == Kind::Packed) {
    specs.push_back(choiceParam("block_size", ParamRole::Launch, {"128", "256", "512"}, "512",
                                "threads",
                                "threads per block; each holds where its positions of a tile "
                                "lie, up to 8 of them"));
    specs.push_back(choiceParam("tile_elements", ParamRole::Launch, {"512", "1024", "2048", "4096"},
                                "4096", "elements",
                                "most elements a tile holds, at most 8 per thread: larger tiles "
                                "give longer runs on both sides and cost more registers"));
    specs.push_back(autoChoiceParam(
        "access", ParamRole::Launch, {"elements", "words"}, "",
        "how a tile moves: one element at a time on both sides, or in words of 4, 8 or 16 bytes "
        "loaded whole into shared memory and gathered element by element for the stores, where "
        "every word of both sides' runs starts on its width (word_bytes says which, bank_ways "
        "how many words a bank serves in a warp's gather); auto takes words where they fit"));
  }
  if (kind == Kind::Planes)
    specs.push_back(choiceParam("block_size", ParamRole::Launch, {"64", "128", "256", "512"}, "128",
                                "threads",
                                "threads per block; a block holds one plane in shared memory, so "
                                "smaller blocks put more planes on an SM at once"));
  if (lines) {
    specs.push_back(autoChoiceParam(
        "tile_cols", ParamRole::Launch, {"32", "64", "128"}, "columns",
        "source columns a tile holds, a thread each (128 rows of bytes, 64 of halves); auto takes "
        "the narrowest that holds a source row, else the widest (128 for bytes, 64 for halves). "
        "A tile wider than the rows holds them whole; where its lanes past them would be more "
        "than a quarter of its lanes (but for 17 to 31 columns) it packs its lanes instead, a "
        "thread a column of each segment: 40 columns in 4 segments take 160 threads, none idle"));
    ParamSpec rows = integerParam(
        "tile_rows", ParamRole::Launch, 64, 4096, "auto", "rows",
        "source rows a tile holds, in segments of 128 bytes of each column (128 rows of bytes, 64 "
        "of halves); every segment also gathers the 32 bytes above it, which the tile loads once. "
        "Packed tiles take 1 to 32 segments of at most 256 threads together; auto takes the "
        "segments that leave the fewest lanes and rows idle in up to 160 threads (a warp where a "
        "segment is under 17 columns) and 1024 tiles, nearest 128 threads. Other tiles take 1, 2 "
        "or 4 segments (4 where a tile row is 128 bytes or fewer); auto takes two where a tile "
        "of 64 bytes a row or fewer holds whole rows, they fill it within 5 % as well as one "
        "and 1024 tiles or more remain, else one",
        64);
    rows.allowsAuto = true;
    specs.push_back(rows);
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
    specs.push_back(autoChoiceParam(
        "exchange", ParamRole::Launch, {"shared", "registers"}, "",
        "where the elements change places: shared puts each element of the planar side into "
        "shared memory by itself, a shared store a byte for bytes; registers has each lane load "
        "a 4-byte word of every plane (or as many of the interleaved run), transpose that cell "
        "with byte permutes and pass it through shared memory in words, for bytes and halves in 2 "
        "to 8 planes, in blocks of 256 threads or fewer past 5 planes. Runs that start inside "
        "words (planes of a width that is not whole words, a source off one: shifted says so) "
        "read and write the aligned words that cover them, shifted into place, and store the "
        "words they share with their neighbours a byte at a time. auto takes registers where "
        "runs start on words, and for bytes from planes where they do not, unless movement_size "
        "or swizzle is set"));
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
        "and a taller tile, as long as the tile fits in 48 KiB of shared memory; auto is 4 for "
        "8-byte elements, 1 for 16-bit ones where DRAM feeds each SM more than 30 GB/s (an H200), "
        "else 2"));
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

// tiled_wide's tile: cells across and cells a thread, as given, else auto's on a device whose
// memory is fast or not.
struct CellShape {
  int across = 16, perThread = 1;
};

CellShape cellShapeOf(const ParamSet& p, int bytes, bool fastMemory) {
  const auto given = [&](const char* name) {
    return p.has(name) && !p.isAuto(name) ? std::optional<int>(static_cast<int>(p.getInt(name)))
                                          : std::nullopt;
  };
  return {given("cells_across").value_or(autoCellsAcross(bytes)),
          given("cells_per_thread").value_or(autoCellsPerThread(bytes, fastMemory))};
}

// What aligned stores read for each unit a destination row has (elements, or words of cells):
// each column of tiles in kAlignedTall windows and the one above them, the last filled as the
// rows allow.
double alignedReads(const permute::TiledLaunch& l) {
  return static_cast<double>(l.tallRows() * (l.kAlignedTall + 1) * l.alignedWindow()) /
         static_cast<double>(l.alignedUnits());
}

constexpr int kMaxAlignedTile = 32;
constexpr double kMaxAlignedReads = 1.5;
constexpr double kMaxAlignedReadsPastL2 = 2.0;
constexpr double kMaxAlignedPairReadsPastL2 = 3.5;
constexpr std::int64_t kMinAlignedPairPlaneBytes = std::int64_t{2} << 20;
constexpr double kMinAlignedColumnFill = 0.75;

// How much aligned stores may read again. In a tensor larger than L2, a sector that two tiles'
// stores share is often written back in halves between them, which costs more than the tall
// tiles' second reads. H100, auto with the bound 1.5 and with these, on random draws of 50 to
// 256 MiB: up to 2.0, 55 of 56 draws 1.01-1.77x ((172, 21, 37158) with (1, 2, 0) in f16 437.7 ->
// 247.2 us, (487, 137800) f32 350.8 -> 246.3), one lost ((387, 1000, 346) with (0, 2, 1) in f16,
// 1.09x the time). From 2.0 to 3.5, pairs in planes of 2 MiB or more won 13 of 13 (1.05-1.78x);
// in planes of 1 MiB or less they lost 3 of 3 (1.08-1.22x). Elements and cells past 2.0 lost 14
// of 22 (up to 1.31x).
double maxAlignedReads(const permute::TiledLaunch& l, const DeviceInfo& device) {
  if (l.batch * l.rows * l.cols * l.elementBytes <= device.l2Bytes) return kMaxAlignedReads;
  const bool largePairPlanes =
      l.pairs && l.rows * l.cols * l.elementBytes >= kMinAlignedPairPlaneBytes;
  return largePairPlanes ? kMaxAlignedPairReadsPastL2 : kMaxAlignedReadsPastL2;
}

// Aligned stores where the destination's rows (the source's columns) are not whole sectors, for
// 4- and 8-byte elements, cells and pairs, unless the tall tiles read too much again (above), the
// source has too few rows to fill the tall tiles (but where one tall tile holds each column),
// too few columns to fill the tiles across ((5, 5667, 37) with (0, 2, 1) in f32 lost 18 %), or
// the tall tiles do not fill a wave of the device ((1097, 955) f32 lost 12 %).
bool alignedStoresPay(permute::TiledLaunch l, int tile, const DeviceInfo& device) {
  l.tile = tile;
  l.alignedStores = true;
  const std::int64_t across = (l.cols + tile - 1) / tile * tile;
  return ((l.cells && permute::cell::rowBytes(l.elementBytes) == 8) || l.pairs ||
          (!l.cells && l.elementBytes >= 4 && tile <= kMaxAlignedTile)) &&
         l.rows * l.elementBytes % kSectorBytes != 0 &&
         (alignedReads(l) <= maxAlignedReads(l, device) ||
          (!l.cells && !l.pairs && permute::alignedTallTileHoldsColumn(l.rows, tile))) &&
         static_cast<double>(l.cols) / static_cast<double>(across) >= kMinAlignedColumnFill &&
         l.tiles() * l.threadsPerBlock() >= waveThreads(device);
}

void addGrid(ParamSet& derived, int grid, int block, const DeviceInfo& device) {
  const ParamSet described = describeGrid(grid, block, device);
  for (const auto& [name, value] : described.values()) derived.set(name, value);
}

// The order a grid takes tiles in: tile_order where given, else auto's for the blocks resident
// at once (as many as the device's threads hold, at most the grid).
permute::TileOrder tileOrderOf(const ParamSet& p, const permute::TileSide& in,
                               const permute::TileSide& out, int grid, int threads,
                               const DeviceInfo& device, ParamSet& derived) {
  const std::int64_t window = std::min<std::int64_t>(grid, waveThreads(device) / threads);
  const permute::TileOrder order =
      p.has("tile_order") && !p.isAuto("tile_order")
          ? (p.get("tile_order") == "destination" ? permute::TileOrder::Destination
                                                  : permute::TileOrder::Source)
          : permute::autoTileOrder(in, out, window);
  derived.set("tile_order", permute::tileOrderName(order));
  return order;
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
    const auto threads = [&](bool deep) {
      const int perThread = permute::unitsPerThread(l.walk, l.unitBytes, deep);
      return (l.plan.elements() + perThread - 1) / perThread;
    };
    // The simplified walk stays at four moves a thread, as its lesson teaches.
    l.deep = kind == Kind::Movement && l.index32 && threads(true) >= waveThreads(device);
    l.grid = gridForWaves(static_cast<std::uint64_t>(threads(l.deep)), l.block, kWaves, device);
    addGrid(derived, l.grid, l.block, device);
    derived.set("simplified_shape", listText(s.shape));
    derived.set("simplified_perm", listText(s.perm));
    derived.set("index_bits", l.index32 ? "32" : "64");
    derived.set("moves_per_thread",
                std::to_string(permute::unitsPerThread(l.walk, l.unitBytes, l.deep)));
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
  const int alignedTileSize = kind == Kind::Tiled ? permute::alignedTileFor(l.rows, bytes)
                                                  : permute::TiledLaunch::kAlignedCellRows;
  if (kind == Kind::Tiled && !given && !p.has("tile_size") &&
      alignedStoresPay(l, alignedTileSize, device))
    l.tile = alignedTileSize;
  l.alignedStores =
      given ? p.get("stores") == "aligned"
            : alignedStoresPay(l, kind == Kind::Tiled ? l.tile : alignedTileSize, device);
  derived.set("stores", l.alignedStores ? "aligned" : "tile");
  if (l.cells) {
    const CellShape shape = cellShapeOf(p, bytes, fastMemory(device));
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
  const std::int64_t tileRows = l.tallRows();
  l.order = tileOrderOf(p, {l.tileCols(), std::int64_t{l.tile} * bytes, l.cols * bytes},
                        {tileRows, (l.rows + tileRows - 1) / tileRows * bytes, l.rows * bytes},
                        l.grid, l.threadsPerBlock(), device, derived);
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
// innermost and start aligned as elements of their own, other rows that stay innermost as units
// of their bytes, else the elements.
struct GeneralUnits {
  Permutation perm;
  int bytes = 0;
  bool rows = false;
  bool byteRows = false;
};

GeneralUnits generalUnits(const Permutation& simplified, int elementBytes,
                          std::int64_t sourceOffsetBytes) {
  if (const auto rows = asRows(simplified, elementBytes, sourceOffsetBytes))
    return {rows->perm, rows->bytes, true};
  if (const auto rows = asByteRows(simplified, elementBytes))
    return {rows->perm, rows->bytes, true, true};
  return {simplified, elementBytes, false};
}

// A general launch's grid and tile order, what every general launch says of its tiles, and its
// launcher.
PermuteLauncher generalLaunch(const ParamSet& p, const Permutation& s, permute::GeneralLaunch l,
                              const DeviceInfo& device, ParamSet& derived) {
  const int threads = l.threadsPerBlock();
  const std::int64_t bytes = l.elementBytes;
  l.grid =
      gridForWaves(static_cast<std::uint64_t>(l.tiling.tiles()) * threads, threads, kWaves, device);
  addGrid(derived, l.grid, threads, device);
  const permute::GeneralTiling& g = l.tiling;
  l.order = tileOrderOf(p, {g.tilesIn(), g.tileIn * bytes, g.inExtent * bytes},
                        {g.tilesOut(), g.tileOut * bytes, g.outExtent * bytes}, l.grid, threads,
                        device, derived);
  derived.set("simplified_shape", listText(s.shape));
  derived.set("simplified_perm", listText(s.perm));
  derived.set("groups", g.describe());
  derived.set("tile", std::to_string(g.tileOut) + " x " + std::to_string(g.tileIn));
  derived.set("tiles", std::to_string(g.tiles()));
  derived.set("index_bits", l.index32 ? "32" : "64");
  return launcherOf(l, permute::launchGeneralTiled);
}

// General tiles of rows of any length as units of their bytes.
PermuteLauncher generalRowsLauncher(const ParamSet& p, const GeneralUnits& units,
                                    const DeviceInfo& device, ParamSet& derived) {
  const Permutation& s = units.perm;
  permute::GeneralLaunch l;
  l.byteRows = true;
  l.elementBytes = units.bytes;
  l.tiling = permute::byteRowTiling(s, units.bytes);
  const int tileUnits = l.tiling.tileIn * l.tiling.tileOut;
  if (p.has("tile_in") && !p.isAuto("tile_in")) {
    l.tiling.tileIn = static_cast<int>(p.getInt("tile_in"));
    l.tiling.tileOut = permute::tileRowsFor(l.tiling, l.tiling.tileIn, tileUnits);
  }
  // Short rows take a word or two past their units each: tall tiles of them may not fit.
  while (l.sharedBytes() > permute::kMaxGeneralSharedBytes && l.tiling.tileOut > 1)
    l.tiling.tileOut /= 2;
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : 256;
  // Byte offsets, a word's headroom past the tensor included.
  l.index32 = s.elements() * units.bytes <= INT32_MAX - 16;
  derived.set("row_bytes", std::to_string(units.bytes));
  derived.set("rows", "bytes");
  derived.set("access_bytes", "16");
  return generalLaunch(p, s, l, device, derived);
}

// General tiles' aligned stores, for units of 4 bytes or more moved as elements where some
// column's destination run starts inside a sector (a dimension of the in group or the batch has a
// destination stride of no whole sectors), so that stores straddle sectors at the tiles' edges;
// where the runs span kMinAlignedOutTiles tiles or more, the tensor is larger than L2, and the
// in group spans kMinAlignedInTiles tiles or fills kMinAlignedInFill of them. H100, forced both
// ways: the random bench's (87, 6, 64280) reversed in f32 1766 -> 2220 GB/s, (15, 65, 12, 46,
// 124) with (4, 2, 0, 1, 3) 2119 -> 2612; of 24 other random draws it takes 20, 19 of them
// 1.003 to 1.37x (3983 x 351 x 48 reversed 1959 -> 2677) and one 0.98. Lost: tensors of 16 MiB,
// which L2 holds while both halves of a straddled sector arrive (0.84, 0.86), runs of 1.7 and 6.4
// tiles (0.86, 0.90), in groups of 15 to 132 elements in 1 to 3 partly filled tiles (0.82 to 0.94),
// their blocks paying for the rows before in few columns.
//
// Cells of bytes take them where the in group spans kMinSectorCellInTiles tiles or more, so that
// the tiles either side of a straddled sector run far apart and its halves reach DRAM apart, and
// the out group 1.5 tiles or more. H100, forced on the random bench's 37 draws in cells: 8 gained
// 1.03-1.19x, 5 of them taken ((323, 4, 16, 270, 24) with (4, 2, 3, 1, 0) 1598 -> 1898 GB/s,
// (72, 6, 10, 62137) with (2, 3, 1, 0) 1756 -> 1985); 29 lost 1-31 %, for the rows above they
// read: columns on sectors already (10), halves (10 of 11), in groups of 20 tiles or fewer, out
// groups shorter than a tile. (1000, 329, 6, 96) with (2, 1, 3, 0) gained 1.18x in 4.5 tiles of
// 576 bytes: the groups below.
constexpr std::int64_t kMinAlignedOutTiles = 8;
constexpr std::int64_t kMinAlignedInTiles = 4;
constexpr double kMinAlignedInFill = 0.95;
constexpr std::int64_t kMinSectorCellInTiles = 32;
// Cells of bytes also take them where the in group spans kMinMidCellInTiles tiles or more and
// the out group 3 to 8 tiles whose innermost dimension is a cell's side or more. H100, against
// tile stores on 21 draws of 64 MiB and more: 18 gained 1.01-1.27x ((1000, 74, 36, 100) with (2,
// 3, 1, 0) 266.5 -> 209.3 us, the random bench's (1000, 329, 6, 96, 1) with (2, 1, 3, 4, 0) 0.724
// -> 0.878 of the copy ceiling), 3 lost 1.03-1.05x, two of them in out groups whose innermost
// dimension is 3 (left out).
constexpr std::int64_t kMinMidCellInTiles = 4;
constexpr std::int64_t kMinMidCellOutTiles = 3, kMaxMidCellOutTiles = 8;
bool midOutCellGroups(const permute::GeneralTiling& g) {
  return g.tilesIn() >= kMinMidCellInTiles && g.outExtent >= kMinMidCellOutTiles * g.tileOut &&
         g.outExtent <= kMaxMidCellOutTiles * g.tileOut && g.out[0].size >= permute::cell::side(1);
}

bool generalAlignedStoresPay(const permute::GeneralLaunch& l, const DeviceInfo& device) {
  const permute::GeneralTiling& g = l.tiling;
  const std::int64_t bytes = g.inExtent * g.outExtent * g.batchExtent * l.elementBytes;
  if (bytes < device.l2Bytes) return false;
  const auto straddles = [&](const permute::GeneralTiling::Axis* axes, int rank) {
    return std::any_of(axes, axes + rank, [&](const permute::GeneralTiling::Axis& axis) {
      return axis.dstStride * l.elementBytes % kSectorBytes != 0;
    });
  };
  const bool straddled = straddles(g.in, g.inRank) || straddles(g.batch, g.batchRank);
  if (l.cells)
    return straddled && l.elementBytes == 1 &&
           ((g.tilesIn() >= kMinSectorCellInTiles && 2 * g.outExtent >= 3 * g.tileOut) ||
            midOutCellGroups(g));
  if (l.words || l.shifted || l.elementBytes < 4 || g.outExtent < kMinAlignedOutTiles * g.tileOut ||
      g.tileOut * l.elementBytes < kSectorBytes)
    return false;
  if (g.tilesIn() < kMinAlignedInTiles && g.inFill() < kMinAlignedInFill) return false;
  return straddled;
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
  if (units.byteRows) return generalRowsLauncher(p, units, device, derived);
  const Permutation& s = units.perm;
  const int bytes = units.bytes;
  if (units.rows) derived.set("row_bytes", std::to_string(bytes));
  permute::GeneralLaunch l;
  l.tiling = tilingOf(s, bytes);
  l.elementBytes = bytes;
  const Access access = generalAccess(p, s, l.tiling, bytes);
  l.cells = access == Access::Cells;
  if (l.cells) l.tiling = cellTiling(s, bytes);
  if (access == Access::Elements && bytes >= 4)
    permute::fitTileSides(l.tiling, bytes, permute::generalTileElements(bytes));
  if (p.has("tile_in") && !p.isAuto("tile_in")) {
    l.tiling.tileIn = static_cast<int>(p.getInt("tile_in"));
    l.tiling.tileOut =
        permute::tileRowsFor(l.tiling, l.tiling.tileIn, permute::generalTileElements(bytes));
  }
  // Words aligned where the groups are whole words and the source starts on one, else shifted
  // into place, in tiles at least a word along each side.
  l.words = access == Access::Words && permute::generalWordsFit(l.tiling, bytes, offsetBytes(p));
  l.shifted = access == Access::Words && !l.words;
  if (l.shifted) {
    l.tiling.tileIn = std::max(l.tiling.tileIn, 4 / bytes);
    l.tiling.tileOut = std::max(l.tiling.tileOut, 4 / bytes);
  }
  l.alignedStores = p.has("stores") && !p.isAuto("stores") ? p.get("stores") == "aligned"
                                                           : generalAlignedStoresPay(l, device);
  // A tile's rows span a sector or more, so that its columns' windows start a tile apart.
  const int sectorRows = static_cast<int>(kSectorBytes) / bytes;
  if (l.alignedStores && l.tiling.tileOut < sectorRows) {
    l.tiling.tileOut = sectorRows;
    l.tiling.tileIn = std::min(l.tiling.tileIn, permute::generalTileElements(bytes) / sectorRows);
  }
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : 256;
  // Shifted words count from the aligned word before the source: a few elements of headroom.
  l.index32 = s.elements() <= INT32_MAX - 8;
  derived.set("access_bytes", std::to_string(l.cells ? 8 : l.words || l.shifted ? 4 : bytes));
  if (bytes >= 4 || l.cells) derived.set("stores", l.alignedStores ? "aligned" : "tile");
  if (l.words || l.shifted) derived.set("words", l.shifted ? "shifted" : "aligned");
  if (l.cells) {
    const permute::CellShifts shifts =
        permute::cellShifts(l.tiling, bytes, static_cast<int>(offsetBytes(p) % 8) / bytes, 0);
    derived.set("cells", shifts.loads || shifts.stores ? "shifted" : "aligned");
    if (shifts.loads || shifts.stores)
      derived.set("shifted_sides", shifts.loads && shifts.stores ? "loads and stores"
                                   : shifts.loads                ? "loads"
                                                                 : "stores");
  }
  return generalLaunch(p, s, l, device, derived);
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
  const bool elements = p.has("access") && p.get("access") == "elements";
  if (!elements && l.index32) l.words = permute::packedWords(l.tiling, bytes, offsetBytes(p));
  // Words of bytes hold up to 16 of a tile's elements: fewer threads fill a block's share.
  while (!p.has("block_size") && l.words.bytes && l.block > 128 &&
         (l.block / 2) * (l.words.bytes / bytes) >= l.tiling.volume)
    l.block /= 2;
  // Each block works out its positions once, then walks tiles with loads in flight: a wave of
  // blocks, no more than the device holds at once, since a block that waited for another to
  // finish would start its loads only then (packed tiles in words 1.00-1.11x, H100).
  l.grid = gridForWaves(static_cast<std::uint64_t>(l.tiling.tiles()) * l.block, l.block,
                        kPackedWaves, device);
  if (const int resident = permute::packedResidentBlocks(l); resident > 0)
    l.grid = std::min(l.grid, resident * device.smCount);
  addGrid(derived, l.grid, l.block, device);
  derived.set("simplified_shape", listText(s.shape));
  derived.set("simplified_perm", listText(s.perm));
  derived.set("packed", l.tiling.describe());
  derived.set("run_bytes_read", std::to_string(l.tiling.runIn * bytes));
  derived.set("run_bytes_written", std::to_string(l.tiling.runOut * bytes));
  derived.set("positions_per_thread", std::to_string(l.perThread()));
  derived.set("access", l.words.bytes ? "words" : "elements");
  if (l.words.bytes) {
    derived.set("word_bytes", std::to_string(l.words.bytes));
    derived.set("swizzle", l.words.swizzle ? "on" : "off");
    char ways[16];
    std::snprintf(ways, sizeof ways, "%.2f", l.words.bankWays);
    derived.set("bank_ways", ways);
  }
  derived.set("tiles", std::to_string(l.tiling.tiles()));
  derived.set("index_bits", l.index32 ? "32" : "64");
  return launcherOf(l, permute::launchPacked);
}

// A reordered batch as the source's batch dimensions in the destination's order: "1,0" swaps two.
std::string matrixOrderText(const Permutation& s) {
  return listText(std::vector<int>(s.perm.begin(), s.perm.end() - 2));
}

PermuteLauncher narrowLauncher(const ParamSet& p, const Permutation& s, int bytes,
                               const DeviceInfo& device, ParamSet& derived) {
  const auto [t, order] = *asReorderedTranspose(s);
  permute::NarrowLaunch l;
  l.batch = t.batch;
  l.order = order;
  l.planarSource = t.rows <= t.cols;
  l.narrow = std::min(t.rows, t.cols);
  l.wide = std::max(t.rows, t.cols);
  l.elementBytes = bytes;
  const bool forced = p.has("movement_size") && !p.isAuto("movement_size");
  l.vectorBytes = forced ? static_cast<int>(p.getInt("movement_size")) : kNarrowVectorBytes;
  l.sourceHead = static_cast<int>(offsetBytes(p) % l.vectorBytes) / bytes;
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : kNarrowBlock;
  const bool setsVectors = forced || (p.has("swizzle") && !p.isAuto("swizzle"));
  l.cells =
      p.has("exchange") && !p.isAuto("exchange")
          ? p.get("exchange") == "registers"
          : !setsVectors &&
                permute::narrowCellsPay(l.narrow, l.wide, bytes, offsetBytes(p), l.planarSource) &&
                permute::narrowCellsFitBlock(l.narrow, l.block);
  derived.set("transpose", std::to_string(t.batch) + " x " + std::to_string(t.rows) + " x " +
                               std::to_string(t.cols));
  derived.set("direction", l.planarSource ? "planes to interleaved" : "interleaved to planes");
  if (order.rank > 0) derived.set("matrix_order", matrixOrderText(s));
  derived.set("exchange", l.cells ? "registers" : "shared");
  if (l.cells) {
    const bool shifted = !permute::narrowCellsAligned(l.wide, bytes, offsetBytes(p));
    l.grid = gridForWaves(static_cast<std::uint64_t>(permute::narrowCellSpans(l)) * 32, l.block,
                          shifted ? kShiftedCellWaves : kWaves, device);
    addGrid(derived, l.grid, l.block, device);
    derived.set("cell", std::to_string(4 / bytes) + " x " + std::to_string(l.narrow));
    derived.set("shifted", shifted ? "yes" : "no");
    return launcherOf(l, permute::launchNarrowTranspose);
  }
  l.swizzled =
      p.has("swizzle") && !p.isAuto("swizzle") ? p.get("swizzle") == "on" : l.swizzlePays();
  // Heads and the last vector's tail past the tensor stay within 32 bits.
  l.index32 = s.elements() + kNarrowVectorBytes <= INT32_MAX;
  l.grid = gridForWaves(static_cast<std::uint64_t>(l.chunks()) * l.block, l.block, kWaves, device);
  addGrid(derived, l.grid, l.block, device);
  derived.set("swizzled", l.swizzled ? "yes" : "no");
  derived.set("bank_ways", std::to_string(l.bankWays(l.swizzled)));
  derived.set("movement_size_used", std::to_string(l.vectorBytes));
  derived.set("shifted", l.shifted() ? "yes" : "no");
  derived.set("chunk_width", std::to_string(l.chunkWidth()));
  derived.set("index_bits", l.index32 ? "32" : "64");
  return launcherOf(l, permute::launchNarrowTranspose);
}

PermuteLauncher planesLauncher(const ParamSet& p, const Permutation& s, int bytes,
                               const DeviceInfo& device, ParamSet& derived) {
  const BatchTranspose t = *asBatchTranspose(s);
  permute::PlaneLaunch l{t.batch, t.rows, t.cols, bytes};
  l.block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : kPlaneBlock;
  // Every block resident, each walking planes a grid apart (without a device to ask, as many
  // as the SMs' threads hold).
  int perSm = permute::residentPlaneBlocks(l);
  if (perSm == 0) perSm = std::max(device.maxThreadsPerSm / l.block, 1);
  l.grid = static_cast<int>(std::min(std::int64_t{perSm} * std::max(device.smCount, 1), t.batch));
  addGrid(derived, l.grid, l.block, device);
  derived.set("transpose", std::to_string(t.batch) + " x " + std::to_string(t.rows) + " x " +
                               std::to_string(t.cols));
  derived.set("plane_bytes", std::to_string(l.planeBytes()));
  derived.set("word_bytes", std::to_string(l.wordBytes()));
  derived.set("bank_ways", std::to_string(l.bankWays()));
  return launcherOf(l, permute::launchPlaneTranspose);
}

// Lines' launch for the permutation: tile_cols where given, else the narrowest tile that holds a
// row; none where lines take no such permutation or element.
std::optional<permute::LineLaunch> lineLaunchOf(const ParamSet& p, const Permutation& s,
                                                int bytes) {
  auto launch = permute::defaultLineLaunch(s, bytes);
  if (!launch) return std::nullopt;
  permute::LineLaunch& l = *launch;
  const bool cols = p.has("tile_cols") && !p.isAuto("tile_cols");
  if (cols) l.tileCols = static_cast<int>(p.getInt("tile_cols"));
  // Rows not whole segments ask for none: the check refuses them.
  if (p.has("tile_rows") && !p.isAuto("tile_rows")) {
    const std::int64_t rows = p.getInt("tile_rows");
    l.segments = rows % l.segmentRows() == 0 ? static_cast<int>(rows / l.segmentRows()) : 0;
  } else if (cols) {
    l.segments = permute::lineSegmentsFor(l.batch, l.rows, l.cols, l.tileCols, bytes);
  }
  return launch;
}

// "230 x 11080,26 -> 26,11080": a matrix's rows by its columns' dimensions (outermost first),
// and those dimensions in the destination's order where they are more than one.
std::string linesText(const Permutation& s, const permute::LineLaunch& l) {
  const int t = s.perm.back();
  const std::vector<std::int64_t> columns(s.shape.begin() + t + 1, s.shape.end());
  std::string text = std::to_string(l.rows) + " x " + listText(columns);
  if (columns.size() > 1) {
    std::vector<std::int64_t> placed;
    for (const int d : s.perm)
      if (d > t) placed.push_back(s.shape[static_cast<std::size_t>(d)]);
    text += " -> " + listText(placed);
  }
  return text;
}

PermuteLauncher linesLauncher(const ParamSet& p, const Permutation& s, int bytes,
                              const DeviceInfo& device, ParamSet& derived) {
  const permute::LineLaunch l = *lineLaunchOf(p, s, bytes);
  addGrid(derived, static_cast<int>(l.tiles()), static_cast<int>(l.threads()), device);
  derived.set("matrices", std::to_string(l.batch));
  derived.set("matrix", linesText(s, l));
  derived.set("tile_cols_used", std::to_string(l.segmentLanes()));
  derived.set("tile_rows_used", std::to_string(l.tileRows()));
  derived.set("shared_bytes", std::to_string(permute::lineSharedBytes(l)));
  return launcherOf(l, permute::launchLineTranspose);
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
    if (kind_ == Kind::Planes) checkPlanes(p, s);
    if (kind_ == Kind::Lines) checkLines(p, s);
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
        : kind == Kind::Planes  ? planesLauncher(p, s, bytes, device, derived)
        : kind == Kind::Lines   ? linesLauncher(p, s, bytes, device, derived)
                                : stridedLauncher(p, original, s, bytes, kind, device, derived);
    return std::make_unique<permute::PermuteWorkload>(original, dtype, p.getInt("offset"),
                                                      std::move(launch), std::move(derived));
  }

 private:
  // The (simplified) permutation as a batched transpose, which the transposing kernels need.
  static BatchTranspose requireTranspose(const Permutation& s, const std::string& kernelMoves) {
    const auto t = asBatchTranspose(s);
    if (!t) throw notATranspose(s, kernelMoves + " 2-D (1,0) and batched (0,2,1) transposes");
    return *t;
  }

  // The same, the batch in any order, which the narrow kernel takes.
  static BatchTranspose requireReorderedTranspose(const Permutation& s,
                                                  const std::string& kernelMoves) {
    const auto r = asReorderedTranspose(s);
    if (!r)
      throw notATranspose(s, kernelMoves +
                                 " 2-D (1,0) and batched (0,2,1) transposes, the batch in any "
                                 "order (as (1,0,3,2))");
    return r->t;
  }

  static Error notATranspose(const Permutation& s, const std::string& moves) {
    return paramError("perm", moves + "; this one simplifies to shape " + listText(s.shape) +
                                  ", perm " + listText(s.perm) + ": use movement or auto");
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
    const int side = permute::cell::side(bytes), row = permute::cell::rowBytes(bytes);
    if (t.rows % side != 0 || t.cols % side != 0)
      throw paramError("shape", "tiled_wide moves cells of " + std::to_string(side) + " x " +
                                    std::to_string(side) + " " + p.get("dtype") +
                                    " elements, and the transpose is " + std::to_string(t.rows) +
                                    " x " + std::to_string(t.cols) + "; allowed: sides that are " +
                                    "multiples of " + std::to_string(side) + ", or use auto");
    // Against auto's taller tile, that of slower memory: what fits there fits on any device.
    const auto [across, stacked] = cellShapeOf(p, bytes, false);
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
    if (offsetBytes(p) % row != 0)
      throw paramError("offset", "tiled_wide reads " + std::to_string(row) +
                                     "-byte rows, and a source " + p.get("offset") +
                                     " elements in is not " + std::to_string(row) +
                                     "-byte aligned; allowed: offsets of " + std::to_string(side) +
                                     " elements, or use auto");
    if (row != 8 && p.get("stores") == "aligned")
      throw paramError("stores",
                       "tiled_wide aligns stores of cells of 8-byte rows, and cells "
                       "of f64 have 16-byte rows; allowed: tile, auto, or use tiled");
  }

  static void checkGeneral(const ParamSet& p, const Permutation& s) {
    const GeneralUnits units = generalUnits(s, elementBytes(p), offsetBytes(p));
    if (!innermostMoves(s) && !units.rows)
      throw paramError("perm", "the innermost dimension stays innermost (simplified: shape " +
                                   listText(s.shape) + ", perm " + listText(s.perm) +
                                   ") in rows of " +
                                   std::to_string(s.shape.back() * elementBytes(p)) +
                                   " bytes; tiles take rows of up to " +
                                   std::to_string(permute::kMaxByteRowBytes) +
                                   " bytes as units: use movement or auto");
    if (units.byteRows) return checkByteRows(p, units);
    const Access access =
        generalAccess(p, units.perm, tilingOf(units.perm, units.bytes), units.bytes);
    if (p.has("stores") && p.get("stores") == "aligned" && units.bytes < 4) {
      if (access != Access::Cells)
        throw paramError("stores",
                         "aligned stores take units of 4 bytes or more, or cells, and "
                         "these tiles move " +
                             std::to_string(units.bytes) + "-byte units " +
                             (access == Access::Words ? "in words" : "one at a time") +
                             "; allowed: tile or auto, or access=cells");
    }
    if (p.has("tile_in") && !p.isAuto("tile_in") && access == Access::Cells)
      throw paramError("tile_in",
                       "tiles of cells take their own sides; allowed: auto, or "
                       "access=elements or words");
    if (!p.has("access") || p.isAuto("access") || p.get("access") == "elements") return;
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
    const auto tiling = packedTilingOf(p, s, elementBytes(p));
    if (p.get("access") == "words" && s.elements() > INT32_MAX)
      throw paramError("access", "words take 32-bit indices, and " + p.get("shape") +
                                     " has more than 2^31 - 1 elements; allowed: elements or "
                                     "auto");
    if (tiling && p.get("access") == "words" &&
        !permute::packedWords(*tiling, elementBytes(p), offsetBytes(p)).bytes)
      throw paramError("access", "the tile " + tiling->describe() +
                                     " has runs that are no whole words of 4, 8 or 16 bytes "
                                     "(two elements or more) on both sides; allowed: elements "
                                     "or auto");
    if (!tiling)
      throw paramError("shape", "the simplified permutation (shape " + listText(s.shape) +
                                    ", perm " + listText(s.perm) +
                                    ") would need its innermost dimensions on both sides cut to "
                                    "fit a tile of " +
                                    p.get("tile_elements") +
                                    " elements; packed tiles cut one: use general or auto");
  }

  static void checkPlanes(const ParamSet& p, const Permutation& s) {
    const auto t = requireTranspose(s, "planes move");
    const int bytes = elementBytes(p);
    const permute::PlaneLaunch l{t.batch, t.rows, t.cols, bytes};
    const std::string plane = std::to_string(t.rows) + " x " + std::to_string(t.cols) + " " +
                              p.get("dtype") + " (" + std::to_string(l.planeBytes()) + " bytes)";
    if (!l.wholeVectors() || l.planeBytes() > permute::kMaxPlaneBytes)
      throw paramError("shape",
                       "a plane is " + plane + "; planes move whole 16-byte vectors, at most " +
                           std::to_string(permute::kMaxPlaneBytes) + " bytes of them: use auto");
    if (!l.wholeWords())
      throw paramError("shape", "a plane is " + plane + "; its " + std::to_string(t.rows) +
                                    " rows make destination rows of no whole " +
                                    std::to_string(l.wordBytes()) + "-byte words: use auto");
    if (offsetBytes(p) % 16 != 0)
      throw paramError("offset", "planes load 16-byte vectors, and a source " + p.get("offset") +
                                     " elements in is not 16-byte aligned; allowed: 0, or use "
                                     "auto");
  }

  static void checkLines(const ParamSet& p, const Permutation& s) {
    if (!innermostMoves(s))
      throw paramError("perm",
                       "lines move permutations that move the innermost dimension; this "
                       "one simplifies to shape " +
                           listText(s.shape) + ", perm " + listText(s.perm) +
                           ": use movement or auto");
    const int bytes = elementBytes(p);
    if (bytes > 2)
      throw paramError("dtype",
                       "lines gather a column an element a row, of bytes or halves; "
                       "allowed: u8, f16, bf16, or use auto");
    const auto launch = lineLaunchOf(p, s, bytes);
    if (!launch) throw paramError("shape", "lines take dimensions of at most 2^31 - 1: use auto");
    const permute::LineLaunch& l = *launch;
    if (bytes == 2 && l.tileCols > 64)
      throw paramError("tile_cols", "tiles of halves hold 32 or 64 columns");
    if (!permute::lineTileBuilt(l)) {
      const std::string unit =
          std::to_string(l.segmentRows()) + " rows of " + (bytes == 1 ? "bytes" : "halves");
      throw paramError("tile_rows",
                       l.packedRows()
                           ? p.get("tile_rows") + " rows: packed tiles hold 1 to 32 segments of " +
                                 unit + ", a thread a column of each, at most 256 threads (here " +
                                 std::to_string(l.cols) + " columns)"
                           : p.get("tile_rows") + " rows: tiles of " + std::to_string(l.tileCols) +
                                 " lanes a segment hold 1, 2 or 4 segments of " + unit +
                                 ", 4 only where a tile row is 128 bytes or fewer");
    }
    if (!permute::linesFit(l))
      throw paramError("shape", "the lines are " + std::to_string(l.batch) + " matrices of " +
                                    std::to_string(l.rows) + " x " + std::to_string(l.cols) +
                                    "; lines take sides of at most 2^30 bytes and at most "
                                    "2^31 - 1 tiles of tile_rows by tile_cols: use auto");
  }

  static void checkNarrow(const ParamSet& p, const Permutation& s) {
    const auto t = requireReorderedTranspose(s, "the narrow kernel moves");
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
    if (!p.has("exchange") || p.get("exchange") != "registers") return;
    if (!permute::narrowCellsFit(narrow, bytes))
      throw paramError("exchange", "cells in registers take bytes and halves in 2 to " +
                                       std::to_string(permute::kMaxCellNarrow) +
                                       " planes; this is " + std::to_string(t.rows) + " x " +
                                       std::to_string(t.cols) + " of " + std::to_string(bytes) +
                                       "-byte elements; allowed: shared or auto");
    const int block = p.has("block_size") ? static_cast<int>(p.getInt("block_size")) : kNarrowBlock;
    if (!permute::narrowCellsFitBlock(narrow, block))
      throw paramError(
          "block_size",
          "cells of " + std::to_string(narrow) + " planes in blocks of " + std::to_string(block) +
              " threads take " +
              std::to_string(permute::narrowCellsSharedBytes(narrow, block) / 1024) +
              " KiB of shared memory, past 48; allowed: 64 to 256, or exchange=shared");
    for (const char* vectors : {"movement_size", "swizzle"})
      if (p.has(vectors) && !p.isAuto(vectors))
        throw paramError(vectors, std::string(vectors) +
                                      " sets the shared exchange's vectors; cells in registers "
                                      "move words: leave it auto, or set exchange=shared");
  }

  // Rows of any length move in their own way: one access, their stores, their tiles.
  static void checkByteRows(const ParamSet& p, const GeneralUnits& units) {
    const std::string rows = "rows of " + std::to_string(units.bytes) +
                             " bytes that stay innermost move as units of their bytes";
    if (p.has("access") && !p.isAuto("access") && p.get("access") != "elements")
      throw paramError("access", rows + "; allowed: elements or auto");
    if (p.has("stores") && p.get("stores") == "aligned")
      throw paramError("stores",
                       rows + ", stored in aligned 16-byte windows; allowed: tile or auto");
    if (p.has("tile_in") && !p.isAuto("tile_in")) {
      const permute::GeneralTiling g = permute::byteRowTiling(units.perm, units.bytes);
      if (p.getInt("tile_in") > g.tileIn * g.tileOut)
        throw paramError("tile_in", rows + ", " + std::to_string(g.tileIn * g.tileOut) +
                                        " of them a tile; allowed: up to that, or auto");
    }
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
  add(Kind::TiledWide, "tiled transposes in cells of 8-byte rows (16-byte ones for f64)",
      "A u8 transpose through tiles of single bytes moves 32 bytes per warp access. Here each "
      "thread loads a cell of 8 rows of 8 bytes (4 x 4 for f16, 2 x 2 for f32, 2 x 2 in 16-byte "
      "rows for f64), transposes it in registers with byte permutes and stores 8 destination "
      "rows of 8 bytes: every access of a warp is 256 bytes, two rows of 128 with 16 cells "
      "across, one row with 32, on both sides (512 for f64). Compare it with tiled and "
      "tiled_half2 on the same transpose, and sweep cells_across and cells_per_thread; both "
      "sides must be whole cells. Where the destination's rows do not start on 32-byte sectors "
      "(8196 x 8192 f16), compare stores=tile with stores=aligned.");
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
      "costs. A batch the destination also reorders, as (1, 0, 3, 2), takes each matrix from its "
      "own place in the source (matrix_order): run (2, 12, 12, 116508) with (1, 0, 3, 2) and "
      "(288, 12, 116508) with (0, 2, 1) in f32 to see what reading the matrices out of order "
      "costs. Bytes and halves in 2 to 8 planes take exchange=registers: a lane transposes a "
      "cell of a word of each plane with byte permutes instead of storing each element into "
      "shared memory by itself; run (512, 3, 50176) with (0, 2, 1) in u8 with exchange=shared "
      "and with registers, then (512, 3, 50177), whose planes start inside words.");
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
      "ends one element at a time; each side of a tile of cells shifts only where it needs to "
      "(shifted_sides says which). Compare access=elements, words and cells to see what the "
      "shifts are worth. For 4- and 8-byte elements whose columns start inside 32-byte sectors "
      "((87, 6, 64280) reversed in f32), compare stores=tile with stores=aligned; cells take "
      "stores=aligned too, from the sector before each tile's first row ((323, 4, 16, 270, 24) "
      "with (4, 2, 3, 1, 0) in u8). Rows of 2, 4 or 8 bytes that stay innermost move as "
      "elements of their own; rows of other lengths up to 512 bytes, or whose source starts "
      "inside a row, move as units of their bytes (rows says so): each tile row is read in the "
      "8-byte words that cover it and each column's run is put together from the units' bytes "
      "in 16-byte windows. "
      "Compare general with movement on (47, 19, 20039, 15) with (1, 2, 0, 3) in u8, whose walk "
      "moves a byte at a time. A group that is not a whole number of tiles leaves its last tile "
      "part empty: sweep tile_in on (12, 14, 736, 11, 6) with (3, 1, 4, 2, 0) in f64, whose rows "
      "of 66 fill tiles 64 wide to 52 % and 16 wide to 83 % (tile says which auto took).");
  add(Kind::Packed, "tiles of whole dimensions from both sides, for short ones",
      "Tiles of two groups transpose the source's innermost dimensions against the "
      "destination's; where both are short and meet in a third, (5, 273913, 49) reversed, a "
      "tile's columns are 5 elements, each 1.4 MB from the next. Here a tile holds whole "
      "dimensions "
      "of both sides and a chunk of the one they share, 5 x 16 x 49, read in the source's order "
      "and written in the destination's: runs of 784 and 80 elements (run_bytes_read and "
      "run_bytes_written say how long). Each thread works out where its 8 positions of a tile "
      "lie once, so a tile costs an add and two accesses an element. Sweep tile_elements to see "
      "the runs grow with the tile, and compare it with general on the same shape. Then run the "
      "same shape in u8 and f32 with --metrics compute: an access an element whatever its size "
      "gives bytes as many warp instructions as floats for a quarter of the bytes, and they move "
      "slower. Where both sides' runs are whole words (access=words; word_bytes says how wide), "
      "a thread loads whole words and keeps several tiles' words loading at once: compare "
      "access=elements and words on (127826, 3, 100, 7) with (3, 1, 0, 2) in u8.");
  add(Kind::Planes, "batches of small transposes, a whole plane at a time",
      "A batch of small planes, (15978, 84, 100) with (0, 2, 1) in u8, gives tiles of 32 or 64 "
      "little to fill, and each plane's rows start anywhere. Here a block loads a whole plane, "
      "contiguous on both sides, in 16-byte vectors into shared memory and writes the "
      "transposed plane in 4-byte words, each gathered from 4 rows of one column (8-byte words "
      "for 8-byte elements). A warp's 32 words then read rows 4 apart, which for rows of 100 "
      "bytes meet in 8 banks; lanes 8 apart start on different bytes of their words, so every "
      "lane has a bank of its own (bank_ways says how many words a bank serves). Sweep "
      "block_size: smaller blocks hold more planes an SM at once. Planes must be whole 16-byte "
      "vectors of at most 48 KiB.");
  add(Kind::Lines,
      "permutations of bytes and halves that move the innermost dimension, in raw rows and "
      "gathered columns",
      "Channels last to 40 planes of bytes, (1677721, 40) with (1, 0), starts every source row "
      "and every destination column somewhere inside a 16-byte word: tiles of cells shift "
      "each word into place, about a dozen instructions a byte. Here a block copies 128 source "
      "rows and the 32 above them into shared memory as they are (cp.async): where the tile "
      "holds whole rows they are one contiguous run, copied in 16-byte words, each once; else "
      "each row's covering words, rows a pitch apart that keeps every word aligned there. "
      "Then each lane gathers one column down all the rows, a byte a row: a warp reads 32 "
      "neighbouring bytes of one row, so no two lanes meet in a bank. The lane shifts its "
      "column in registers to start on the destination's 32-byte sector at or before the "
      "tile's first row and stages it, and 8 lanes store each column in whole 16-byte words. "
      "Compare it with narrow on (1677721, 40), with general on (5161845, 52), and with auto on "
      "(8192, 8192), whose rows start on words (aligned cells move them), and sweep tile_cols on "
      "(5161845, 52): 32 cuts rows into covering words; 64 holds whole rows, 12 of its lanes a "
      "segment idle; 128 would idle more than a quarter, so it packs its lanes instead, a thread "
      "a column of each segment, segments sharing warps. Any permutation that moves the innermost "
      "dimension is such a batch of matrices: "
      "rows the destination's innermost dimension, columns every source dimension inside it, "
      "each column's rows a run in the destination wherever its dimensions put it; compare it "
      "with general on (230, 11080, 26) with (2, 1, 0). Halves go the same way, 64 rows a "
      "segment, an element a row: compare them with packed on (53, 5, 5275, 24) with (1, 0, "
      "3, 2) in f16, a batch of transposes the destination reorders (auto takes lines there), "
      "and with auto on (357, 125, 750) with (2, 1, 0), where general tiles win. Sweep "
      "tile_rows on (1677721, 40), whose tiles pack 40 lanes a segment: a tile's segments share "
      "the rows above the second and after, loaded once, and fill its warps (4 segments: 160 "
      "threads, none idle), but taller tiles hold fewer blocks an SM.");
  add(Kind::Auto, "picks the kernel and says which",
      "The planes kernel for batches of planes of bytes and halves of 5 to 13 KiB (bytes to 17 "
      "KiB) that are whole 16-byte vectors, from 60 MiB, where its gathers meet 8 words a bank or "
      "fewer. "
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
      "from channels last with 8 or more channels, else the movement kernel; the narrow kernel "
      "for such transposes of 4- and 8-byte elements whose batch the destination reorders (as "
      "(1, 0, 3, 2)), from 32 MiB, where it would take them in order; general tiles for "
      "any other permutation that moves the innermost dimension, the movement kernel where it "
      "stays, where a tile's columns would hold 16 bytes or fewer while the destination goes "
      "on along the source's rows, or where tiles of 2-, 4- and 8-byte elements would be mostly "
      "empty (but for aligned cells) and its walk reads the source's sectors again soon or "
      "densely, and from 32 MiB where byte tiles in words would be mostly empty and the source "
      "bytes its walk passes before it comes back span 192 sectors or fewer (or lie 16 bytes or "
      "less apart); packed tiles from 32 MiB where general tiles would have a side of 48 bytes or "
      "fewer (columns of bytes: 63 or fewer) or would move single halves filling less than "
      "0.65 of their tiles while packed tiles run 128 bytes both ways, the walk would take rows "
      "of 3 to 15 bytes that "
      "stay innermost and come back to the source's next row down only after 4096 elements, or "
      "the walk would take bytes whose source runs 4 bytes or more, and from 64 MiB for planes of "
      "1-, 4- or 8-byte elements to channels last whose rows are no whole 32-byte sectors, 65 to "
      "128 of bytes, 256 of floats and 160 of doubles (tiles would store each row straddling "
      "them; bytes from 49 planes; 4- and 8-byte ones from 98, where tiles with aligned stores no "
      "longer hold a column in one tall tile); "
      "packed tiles in "
      "words, from 32 MiB, for bytes and halves the walk would take where they run 128 bytes or "
      "more both ways and rows that stay innermost are shorter than 64 bytes; else general tiles "
      "of rows as units of their bytes, from 4 MiB, for rows shorter than 64 bytes that stay "
      "innermost where the walk would move them a byte at a time, or a half at a time in rows of "
      "5 halves or more. Lines take byte transposes from channels last to 20 to 63 planes that "
      "the narrow kernel would take (12 or more where it would swizzle its vectors), from 4 MB, "
      "or general tiles, from 12 MB (to 80 planes from 64 MB), and wherever the tiled kernel "
      "would move single bytes, from 3 MB; transposes of halves from channels last to 12 to 40 "
      "planes that the narrow kernel would take with planes starting inside its vectors, from "
      "16 MB, or to 40 to 52 planes that tiles would take, from 8 MB; and reordered batches of "
      "transposes of bytes and halves from channels last to 12 to 64 planes, from 32 MiB, that "
      "packed or general tiles would take. The result's chosen value says which ran.");
}

}  // namespace kwb
