#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

// The instructions a SASS listing is read for when teaching memory access: 128-bit global
// accesses against narrower ones, shared memory, barriers and warp shuffles.
enum class SassClass { Other, GlobalWide, GlobalNarrow, Shared, Barrier, Shuffle };
inline constexpr std::array kNotableSassClasses{SassClass::GlobalWide, SassClass::GlobalNarrow,
                                                SassClass::Shared, SassClass::Barrier,
                                                SassClass::Shuffle};

std::string_view describe(SassClass kind);  // "128-bit global load/store", ...

// One kernel's machine code as cuobjdump prints it, without the encoding comments: one line per
// instruction ("/*0080*/  LDG.E.128 R4, desc[UR4][R2.64] ;") and the branch labels.
struct SassFunction {
  std::string symbol;  // mangled
  std::string listing;
};

// The functions of `cuobjdump -sass` output, in the order printed; a symbol printed again (by
// another architecture's ELF) keeps its first listing.
std::vector<SassFunction> parseCuobjdumpSass(std::string_view output);

// The SASS architectures ("sm_90") of `cuobjdump -lelf` output, each once, in the order listed.
std::vector<std::string> parseCuobjdumpElfList(std::string_view output);

// The opcode with its modifiers of one listing line ("LDG.E.128", "BAR.SYNC.DEFER_BLOCKING");
// empty for a label or anything that is not an instruction. A predicate guard is skipped.
std::string sassOpcode(std::string_view line);
SassClass classifySassOpcode(std::string_view opcode);

// What a listing holds: its instruction count and how often each opcode of a class other than
// Other occurs ("LDG.E.128" -> 2), the opcodes that decide what a kernel's memory traffic costs.
struct SassSummary {
  std::size_t instructions = 0;
  std::map<std::string, std::size_t> notable;
  std::size_t count(SassClass kind) const;
};
SassSummary summarizeSass(std::string_view listing);
// "LDG.E.128 x4  STG.E.128 x4": the notable opcodes with their counts, in class order.
std::string notableText(const SassSummary& summary);

// The machine code of the kernels one configuration of a variant launches.
struct SassKernel {
  std::string symbol;   // mangled
  std::string name;     // shortKernelName
  std::string listing;  // as SassFunction::listing
};
struct SassReport {
  std::string family;
  std::string variant;
  std::string arch;                 // "sm_90": the device's, or the closest the binary carries
  std::string binary;               // fileFingerprint of the binary the listings come from
  std::vector<SassKernel> kernels;  // in launch order; empty where the call launches none
  bool cached = false;              // every listing came from the database
  std::string notice;               // one sentence where the listing is not the device's own
};

}  // namespace kwb
