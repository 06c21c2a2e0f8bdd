// General tiles of 1- and 2-byte elements in cells of 8-byte rows (8 x 8 bytes, 4 x 4 halves),
// as tiled_wide moves a transpose; where rows and columns start on no 8-byte word (groups of odd
// extents, a source at any offset), the same cells shifted into place; where columns start
// inside a 32-byte sector, each column's stores may start on the sector before its first row.
#include <cstdint>
#include <type_traits>

#include "kernels/cudacheck.h"
#include "kernels/permute/cell.h"
#include "kernels/permute/generaltile.cuh"
#include "kernels/permute/registertranspose.cuh"

namespace kwb::permute {
namespace {

using namespace tile;

// The 8 bytes of (next : cur) from byte `from` (0 to 7) of cur on.
__device__ __forceinline__ uint2 bytesFrom(uint2 cur, uint2 next, int from) {
  const bool high = from >= 4;
  const std::uint32_t a = high ? cur.y : cur.x, b = high ? next.x : cur.y;
  const std::uint32_t c = high ? next.y : next.x;
  const int shift = (from & 3) * 8;
  return make_uint2(__funnelshift_r(a, b, shift), __funnelshift_r(b, c, shift));
}

// The 16 bytes of (c : b : a) from byte `from` (0 to 7) of a on.
__device__ __forceinline__ uint4 bytesFrom(uint2 a, uint2 b, uint2 c, int from) {
  const uint2 low = bytesFrom(a, b, from), high = bytesFrom(b, c, from);
  return make_uint4(low.x, low.y, high.x, high.y);
}

// Threads an SM holds on the architecture compiled for: 1024 on Turing, 1536 or more since.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr int kSmThreads = 1024;
#else
constexpr int kSmThreads = 1536;
#endif

// Blocks an SM keeps (0: as the compiler sees fit). Shifted cells get registers for 4 blocks of
// 256 threads for bytes and 3 of 512 for halves, as many as an H100's shared memory holds (where
// the SM holds as many threads), where the compiler would take enough for 2 only.
template <int E, bool Shifted>
constexpr int kCellBlocksPerSm = !Shifted ? 0
                                 : E == 1 ? 4
                                          : (kSmThreads / 512 < 3 ? kSmThreads / 512 : 3);

// A column's words a sector holds.
constexpr int kCellSectorWindow = static_cast<int>(kSectorBytes / sizeof(uint2));

// Bytes [lo, hi) of the 8-byte word `v` stored into the aligned word at `at`, in the fewest
// aligned stores: up to three where the range reaches either end of the word.
__device__ __forceinline__ void storePart(uint2* at, uint2 v, int lo, int hi) {
  const unsigned long long bits = static_cast<unsigned long long>(v.y) << 32 | v.x;
  auto* bytes = reinterpret_cast<unsigned char*>(at);
  const auto put = [&](auto unit) {
    using U = decltype(unit);
    *reinterpret_cast<U*>(bytes + lo) = static_cast<U>(bits >> (8 * lo));
    lo += static_cast<int>(sizeof(U));
  };
  if ((lo & 1) && lo < hi) put(std::uint8_t{});
  if ((lo & 2) && lo + 2 <= hi) put(std::uint16_t{});
  if ((lo & 4) && lo + 4 <= hi) put(std::uint32_t{});
  if (hi - lo >= 4) put(std::uint32_t{});
  if (hi - lo >= 2) put(std::uint16_t{});
  if (hi - lo >= 1) put(std::uint8_t{});
}

// Calls store(i) for each column (or pair of columns) i of the tile that the calling warp stores:
// warp, warp + Warps and so on, up to `cols` of the tile's `Columns`.
template <int Warps, int Columns, typename Store>
__device__ __forceinline__ void storeColumns(int cols, Store store) {
  const int warp = static_cast<int>(threadIdx.x / 32);
#pragma unroll 4
  for (int m = 0; m < Columns / Warps; ++m) {
    const int i = warp + Warps * m;
    if (i >= cols) break;  // the same for the whole warp
    store(i);
  }
}

// A x 16 threads, each loading S cells one above the other along the source's rows, transposing
// them in registers and keeping their rows in a tile whose words `slot` orders by the cell's
// column; then storing 8-byte words along the destination's rows (16-byte ones in sector windows).
//
// Each side aligned or shifted on its own. `src` and `dst` are the aligned words holding the
// tensors' first elements (16-byte aligned for sector windows), `srcHead` and `dstHead` how many
// elements into them the tensors start.
// Aligned loads (ShiftLoads false): the in group's extent whole cells and the source 8-byte
// aligned, so every row starts on a word. Shifted loads: a row is read in the aligned words that
// cover it, each shifted into place with the next lane's (the group's last lane loads its own).
// Stores start where `Window` says. Words (0): the out group's extent whole cells and the
// destination aligned, so every column starts on a word. Otherwise a tile owns the destination
// words of each column from the window boundary (8-byte word: Window 1; 32-byte sector: Window
// 4) at or before its first row up to the next tile's, each put together from two of the tile's
// words, those before its first row from the Window cells above the tile, which the first
// Window x A threads load too. Sector windows make every warp's store whole sectors where
// columns start inside one, for the rows above they read. Only a column's first and last words,
// in the group's first and last tiles, are stored in part. Warps iterate whole, since they
// shuffle.
template <int E, int A, int S, bool ShiftLoads, int Window, typename Index>
__global__ void __launch_bounds__(A* cell::kThreadRows,
                                  kCellBlocksPerSm<E, (ShiftLoads || Window > 0)>)
    generalTiledCellsKernel(const uint2* __restrict__ src, int srcHead, uint2* __restrict__ dst,
                            int dstHead, const Args<Index> a) {
  constexpr int kRows = cell::kThreadRows, kSide = 8 / E, kSideShift = E == 1 ? 3 : 2;
  constexpr int kTileIn = A * kSide, kTileOut = kRows * S * kSide;
  constexpr int kRowWords = kRows * S;    // a destination row's words in the tile
  constexpr int kAbove = Window * kSide;  // rows above the tile its stores take
  constexpr unsigned kWarp = 0xffffffffu;
  // The rows above the tile, kept apart from it. Word windows: a word a column, at the column's
  // index. Sector windows: Window words a column; cell c of column across * kSide + k at (k * A +
  // across) * Window + (c ^ (across / 4) % 4), so that the 32 threads storing one k of their
  // cells meet each bank twice. (Ahead of each column's own words in the tile's rows, where rows
  // 8 apart start on one bank, they would meet it 16 times.) A column's words 2p and 2p + 1 stay
  // a 16-byte pair, swapped where the XOR is odd.
  static_assert(Window <= 1 || Window == 4);
  __shared__ alignas(16) uint2 tile[kTileIn][kRowWords];
  __shared__ alignas(Window > 1 ? 16 : 8) uint2 above[Window > 0 ? kTileIn * Window : 1];
  const auto aboveAt = [](int column, int c) {
    if constexpr (Window <= 1) {
      return column;
    } else {
      const int across = column / kSide;
      return (column % kSide * A + across) * Window + (c ^ (across / 4) % 4);
    }
  };
  __shared__ Index srcRow[kAbove + kTileOut], dstCol[kTileIn];
  const int across = threadIdx.x % A, down = threadIdx.x / A;
  // The threads that load the cells above, one each: `aboveCell` of them over a column of cells.
  const bool loadsAbove = static_cast<int>(threadIdx.x) < Window * A;
  const int aboveCell = threadIdx.x / A, aboveRow = -(Window - aboveCell) * kSide;
  const auto keepAbove = [&](int column, uint2 word) { above[aboveAt(column, aboveCell)] = word; };
  // Where word w of a column of cells `cell` lies in its tile row: XOR-ordered by the cell, so
  // that the threads keeping a cell's rows meet each bank twice.
  const auto slot = [](int w, int cell) { return w ^ cell % kRows; };
  // A column's destination in sector windows.
  struct Column {
    Index at;  // the destination word of the window's first
    int head, q, h;
  };
  for (Index t = blockIdx.x; t < a.tiles; t += gridDim.x) {
    const TileStart<Index> start = startTile(a, t, srcRow, dstCol, kAbove);
    const Index in0 = start.in0, out0 = start.out0;
    // Moves the tile; kInside: one inside both groups (below), whose bounds are constants.
    const auto move = [&](auto whole) {
      constexpr bool kInside = decltype(whole)::value;
      const int cols =
          kInside ? kTileIn : static_cast<int>(min(static_cast<Index>(kTileIn), a.inExtent - in0));
      const int rows =
          kInside ? kTileOut
                  : static_cast<int>(min(static_cast<Index>(kTileOut), a.outExtent - out0));
      [[maybe_unused]] const bool notFirst = kInside || out0 > 0;
      [[maybe_unused]] const bool lastTile = !kInside && out0 + kTileOut >= a.outExtent;
      if constexpr (ShiftLoads) {
        // The cell of rows o0 to o0 + kSide - 1 (rows before the group's first are left zero),
        // shifted into place and transposed; `mask` the lanes that take part, A at a time.
        const auto loadCell = [&](int o0, uint2(&cell)[kSide], unsigned mask) {
          int head[kSide];
          uint2 next[kSide];
#pragma unroll
          for (int k = 0; k < kSide; ++k) {
            const int o = o0 + k;
            const bool row = kInside || (o < rows && out0 + o >= 0);
            const Index s = row ? srcRow[kAbove + o] + in0 + srcHead : 0;
            const Index at = (s >> kSideShift) + across;
            head[k] = static_cast<int>(s & (kSide - 1));
            const int first = across * kSide - head[k];  // the row's element at the word's start
            cell[k] = next[k] = make_uint2(0, 0);
            if (row && (kInside || first < cols)) cell[k] = src[at];
            if (row && across == A - 1 && head[k] > 0 && first + kSide < cols)
              next[k] = src[at + 1];
          }
#pragma unroll
          for (int k = 0; k < kSide; ++k) {
            const uint2 after = make_uint2(__shfl_down_sync(mask, cell[k].x, 1, A),
                                           __shfl_down_sync(mask, cell[k].y, 1, A));
            if (across != A - 1) next[k] = after;
            cell[k] = bytesFrom(cell[k], next[k], head[k] * E);
          }
          transposeInRows<kSide / 2>(cell);
        };
        // A cell at a time, so that its words and the next lane's are all a thread holds. A warp
        // whose cells all lie past the tile's rows skips them (whole warps, since they shuffle): in
        // a group's last tile, or one whose group is shorter than a tile, they were most of the
        // instructions.
        const int warpFirstRow = static_cast<int>(threadIdx.x / 32) * (32 / A) * S * kSide;
        if (warpFirstRow < rows) {
#pragma unroll
          for (int j = 0; j < S; ++j) {
            uint2 cell[kSide];
            loadCell((down * S + j) * kSide, cell, kWarp);
#pragma unroll
            for (int k = 0; k < kSide; ++k)
              tile[across * kSide + k][slot(down * S + j, across)] = cell[k];
          }
        }
        if constexpr (Window > 0)
          if (notFirst && loadsAbove) {
            uint2 cell[kSide];
            loadCell(aboveRow, cell, Window * A >= 32 ? kWarp : (1u << (Window * A)) - 1);
#pragma unroll
            for (int k = 0; k < kSide; ++k) keepAbove(across * kSide + k, cell[k]);
          }
      } else {
        // Rows past the group's last, where shifted stores leave its extent no whole cells, are
        // left zero.
        const bool column = kInside || in0 + across * kSide < a.inExtent;
        const auto loadRows = [&](int o, uint2(&cell)[kSide]) {
#pragma unroll
          for (int k = 0; k < kSide; ++k)
            cell[k] = column && (Window == 0 || kInside || out0 + o + k < a.outExtent)
                          ? src[(srcRow[kAbove + o + k] + in0) / kSide + across]
                          : make_uint2(0, 0);
        };
        // All S cells in flight at once, but a cell at a time where shifted stores leave the
        // registers for one only: in word windows, of halves, or with 64-bit indices.
        constexpr int kInFlight =
            Window == 0 || (Window > 1 && E == 1 && sizeof(Index) == 4) ? S : 1;
#pragma unroll
        for (int j0 = 0; j0 < S; j0 += kInFlight) {
          uint2 cell[kInFlight][kSide];
#pragma unroll
          for (int j = 0; j < kInFlight; ++j) {
            const int o = (down * S + j0 + j) * kSide;
            if (column && (kInside || out0 + o < a.outExtent)) loadRows(o, cell[j]);
          }
#pragma unroll
          for (int j = 0; j < kInFlight; ++j) {
            if (column && (kInside || out0 + (down * S + j0 + j) * kSide < a.outExtent)) {
              transposeInRows<kSide / 2>(cell[j]);
#pragma unroll
              for (int k = 0; k < kSide; ++k)
                tile[across * kSide + k][slot(down * S + j0 + j, across)] = cell[j][k];
            }
          }
        }
        if constexpr (Window > 0)
          if (notFirst && loadsAbove) {
            uint2 up[kSide];
            loadRows(aboveRow, up);
            transposeInRows<kSide / 2>(up);
#pragma unroll
            for (int k = 0; k < kSide; ++k) keepAbove(across * kSide + k, up[k]);
          }
      }
      __syncthreads();
      if constexpr (Window == 1) {
        // A warp stores a column at a time, a word a lane: the word holding elements from lane *
        // kSide - head on, the tile's word before's last `head` (the rows above's for the first
        // lane), then this one's.
        static_assert(kRowWords == 32);
        const int lane = threadIdx.x % 32;
        storeColumns<A * kRows / 32, kTileIn>(cols, [&](int i) {
          const Index d = dstCol[i] + out0 + dstHead;
          const int head = static_cast<int>(d & (kSide - 1));
          const Index at = d >> kSideShift;
          const uint2 own = tile[i][slot(lane, i / kSide)], up = above[aboveAt(i, 0)];
          uint2 before =
              make_uint2(__shfl_up_sync(kWarp, own.x, 1), __shfl_up_sync(kWarp, own.y, 1));
          if (lane == 0) before = up;
          const uint2 word = head > 0 ? bytesFrom(before, own, (kSide - head) * E) : own;
          // The word's elements that are the column's: none before the group's first row.
          const int first = lane * kSide - head;
          const int lo = notFirst ? first : max(first, 0);
          const int hi = kInside ? first + kSide : min(first + kSide, rows);
          if (hi - lo == kSide)
            dst[at + lane] = word;
          else if (lo < hi)
            storePart(dst + at + lane, word, (lo - first) * E, (hi - first) * E);
          // In the group's last tile a column may end past the tile's last word: its final
          // `head` elements.
          const int past = kTileOut - head;
          if (lastTile && lane == 31 && head > 0 && past < rows)
            storePart(dst + at + kRowWords, bytesFrom(own, own, (kSide - head) * E), 0,
                      (rows - past) * E);
        });
      } else if constexpr (Window > 1) {
        // Half a warp stores a column, 16 bytes a lane, two columns at a time. Window word j holds
        // the column's elements from j * kSide - head on: the last h of the tile's word j - q - 1
        // (the rows above's where negative) and the first kSide - h of word j - q. A lane's two
        // window words take three of the tile's words: an aligned pair in one shared load, and the
        // word before it (q even) or after it (q odd). Words the column fills in part wait for a
        // second pass, one a thread: in a warp of columns they would each take the whole warp.
        constexpr int kWindow = Window * kSide;
        static_assert(kRowWords == 32 && kTileOut % kWindow == 0);
        const auto columnOf = [&](int i) {
          const Index d = dstCol[i] + out0 + dstHead;
          const int head = static_cast<int>(d & (kWindow - 1));
          return Column{(d - head) >> kSideShift, head, head / kSide, head % kSide};
        };
        // Word w of column i; past the tile's last (a last tile's elements past its rows) any.
        const auto word = [&](int i, int w) {
          // One shared load from either array (a branch would split the warp at lane q).
          return *(w < 0 ? &above[aboveAt(i, w + Window)]
                         : &tile[i][slot(min(w, kRowWords - 1), i / kSide)]);
        };
        // The elements of window word j from its first, `first`, that are the column's: none
        // before the group's first row, none past the tile's rows.
        const auto ownedFrom = [&](int first) { return notFirst ? first : max(first, 0); };
        const auto ownedTo = [&](int first) {
          return kInside ? first + kSide : min(first + kSide, rows);
        };
        const int lane = threadIdx.x % 32, l = lane % 16;
        storeColumns<A * kRows / 32, kTileIn / 2>((cols + 1) / 2, [&](int pair) {
          const int i = 2 * pair + lane / 16;
          if (i >= cols) return;
          const Column c = columnOf(i);
          // Words 2p and 2p + 1 of the column, in one load: a pair stays together, swapped where
          // its first word's slot is odd.
          const auto wordPair = [&](int p, uint2& lo, uint2& hi) {
            const int w = 2 * p;
            const int at = w < 0 ? aboveAt(i, w + Window) : slot(min(w, kRowWords - 2), i / kSide);
            const uint4 v =
                *reinterpret_cast<const uint4*>(w < 0 ? &above[at & ~1] : &tile[i][at & ~1]);
            const uint2 even = make_uint2(v.x, v.y), odd = make_uint2(v.z, v.w);
            lo = at & 1 ? odd : even;
            hi = at & 1 ? even : odd;
          };
          // Window words 2jp and 2jp + 1, where the column fills them.
          const auto put = [&](int jp) {
            const int p = jp - (c.q + 1) / 2;
            uint2 lo, hi, other = make_uint2(0, 0);
            wordPair(p, lo, hi);
            // Where columns start on a word, an even q needs the pair alone.
            if (c.h > 0 || c.q & 1) other = word(i, c.q & 1 ? 2 * p + 2 : 2 * p - 1);
            const bool odd = c.q & 1;
            const uint4 v = c.h > 0 ? bytesFrom(odd ? lo : other, odd ? hi : lo, odd ? other : hi,
                                                (kSide - c.h) * E)
                            : odd ? make_uint4(hi.x, hi.y, other.x, other.y)
                                  : make_uint4(lo.x, lo.y, hi.x, hi.y);
            const int first = 2 * jp * kSide - c.head;
            const bool whole0 = ownedTo(first) - ownedFrom(first) == kSide;
            const bool whole1 = ownedTo(first + kSide) - ownedFrom(first + kSide) == kSide;
            if (whole0 && whole1)
              *reinterpret_cast<uint4*>(dst + c.at + 2 * jp) = v;
            else if (whole0)
              dst[c.at + 2 * jp] = make_uint2(v.x, v.y);
            else if (whole1)
              dst[c.at + 2 * jp + 1] = make_uint2(v.z, v.w);
          };
          put(l);
          // In the group's last tile a column may end past the window's last word.
          if (lastTile && c.head > 0 && kTileOut - c.head < rows && l <= c.q / 2)
            put(kRowWords / 2 + l);
        });
        // The words columns fill in part: in the group's first tile the one holding a column's
        // first row where it starts inside a word, in its last the one holding its last row where
        // it ends inside one (the same word where the column is that short, stored twice); none in
        // a tile inside both groups.
        if (!kInside)
          for (int job = threadIdx.x; job < 2 * cols; job += blockDim.x) {
            const int i = job / 2;
            const bool last = job & 1;
            const Column c = columnOf(i);
            if (last ? !lastTile || (rows + c.head) % kSide == 0 : notFirst || c.h == 0) continue;
            const int j = last ? (rows - 1 + c.head) / kSide : c.q;
            const uint2 v =
                c.h > 0 ? bytesFrom(word(i, j - c.q - 1), word(i, j - c.q), (kSide - c.h) * E)
                        : word(i, j - c.q);
            const int first = j * kSide - c.head;
            storePart(dst + c.at + j, v, (ownedFrom(first) - first) * E,
                      (ownedTo(first) - first) * E);
          }
      } else {
        const int outAcross = threadIdx.x % kRows, outDown = threadIdx.x / kRows;
#pragma unroll
        for (int k = 0; k < kSide; ++k) {
          const int i = outDown * kSide + k;
#pragma unroll
          for (int j = 0; j < S; ++j) {
            const int w = outAcross + kRows * j;
            if (in0 + i < a.inExtent && out0 + w * kSide < a.outExtent)
              dst[(dstCol[i] + out0) / kSide + w] = tile[i][slot(w, outDown)];
          }
        }
      }
    };
    // A tile inside both groups, past the out group's first tile and before its last, has every
    // column and row and no word a column fills in part: where stores shift, its moves take no
    // bounds (H200: 1.04-1.06x where they shift, 0.95-0.99x where they do not, the kernel's
    // code twice). 64-bit indices keep one path: the second spilled.
    if constexpr (Window > 0 && sizeof(Index) == 4)
      if (in0 + kTileIn <= a.inExtent && out0 > 0 && out0 + kTileOut < a.outExtent) {
        move(std::true_type{});
        __syncthreads();
        continue;
      }
    move(std::false_type{});
    __syncthreads();
  }
}

}  // namespace

void launchGeneralCells(const GeneralLaunch& l, cudaStream_t stream) {
  static_assert(GeneralLaunch::cellsAcross(1) == 16 && GeneralLaunch::cellsAcross(2) == 32 &&
                GeneralLaunch::kCellsPerThread == 2);
  const auto src = tile::wordStart<const uint2>(l.src, l.elementBytes);
  const auto dst = tile::wordStart<uint2>(l.dst, l.elementBytes);
  const CellShifts shifts = cellShifts(l.tiling, l.elementBytes, src.head, dst.head);
  // Sector windows count from the 16-byte word the destination starts in.
  const auto dst16 = tile::wordStart<uint4>(l.dst, l.elementBytes);
  const auto launch = [&](auto kernel, auto args) {
    kernel<<<l.grid, l.threadsPerBlock(), 0, stream>>>(
        src.word, src.head, l.alignedStores ? reinterpret_cast<uint2*>(dst16.word) : dst.word,
        l.alignedStores ? dst16.head : dst.head, args);
    KWB_CHECK_LAUNCH("generalTiledCellsKernel");
  };
  const auto indexed = [&]<int E, int A, bool Loads, int Window>() {
    if (l.index32)
      return launch(generalTiledCellsKernel<E, A, 2, Loads, Window, std::int32_t>,
                    argsOf<std::int32_t>(l));
    launch(generalTiledCellsKernel<E, A, 2, Loads, Window, std::int64_t>, argsOf<std::int64_t>(l));
  };
  const auto windowed = [&]<int E, int A, bool Loads>() {
    if (l.alignedStores) return indexed.template operator()<E, A, Loads, kCellSectorWindow>();
    if (shifts.stores) return indexed.template operator()<E, A, Loads, 1>();
    indexed.template operator()<E, A, Loads, 0>();
  };
  const auto typed = [&]<int E, int A>() {
    if (shifts.loads) return windowed.template operator()<E, A, true>();
    windowed.template operator()<E, A, false>();
  };
  if (l.elementBytes == 1) return typed.template operator()<1, 16>();
  typed.template operator()<2, 32>();
}

}  // namespace kwb::permute
