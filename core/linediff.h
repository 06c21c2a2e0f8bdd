#pragma once

#include <string>
#include <string_view>

namespace kwb {

// The difference between two texts line by line, as `diff -u` prints it: "--- a" and "+++ b"
// headers, then hunks "@@ -l,n +l,n @@" with `context` unchanged lines around each change. Empty
// where the texts are equal. Longest common subsequence, so texts up to a few thousand lines.
std::string unifiedDiff(std::string_view before, std::string_view after,
                        const std::string& beforeName, const std::string& afterName,
                        std::size_t context = 3);

}  // namespace kwb
