#pragma once

#include <cstdint>
#include <string>

namespace kwb {

// Human-readable values for tables: "12.34 us", "3012.5 GB/s", "1.00 GiB", "93.1%".
std::string formatSeconds(double seconds);
std::string formatBandwidth(double bytesPerSecond);
std::string formatBytes(double bytes);
std::string formatPercent(double fraction);

}  // namespace kwb
