#include "app/cli/table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kwb {
namespace {

TEST(Table, AlignsNumberColumnsRightAndTextLeft) {
  Table table({"name", "median"});
  table.addRow({"memcpy", "9.50 us"});
  table.addRow({"vectorized", "10.25 us"});
  table.addRow({"failed", "-"});
  std::ostringstream out;
  table.print(out);
  EXPECT_EQ(out.str(),
            "name        median\n"
            "----------  --------\n"
            "memcpy       9.50 us\n"
            "vectorized  10.25 us\n"
            "failed             -\n");
}

}  // namespace
}  // namespace kwb
