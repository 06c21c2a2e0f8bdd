#include "db/database.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "db/testdb.h"

namespace kwb {
namespace {

TEST(Statement, BindsAndReadsByName) {
  testing::TempDir dir;
  Database db(dir.file("t.sqlite"));
  db.exec("CREATE TABLE t (a INTEGER, b TEXT, c REAL)");
  auto insert = db.prepare("INSERT INTO t (c, b, a) VALUES (:c, :b, :a)");
  insert.bind(":a", std::int64_t{7}).bind(":b", std::string_view("seven")).bind(":c", 7.5);
  insert.run();
  // Columns in another order than the table's, one more in front: each still reads by its name.
  auto select = db.prepare("SELECT 42 AS extra, c, b AS name, a FROM t");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.int64("a"), 7);
  EXPECT_EQ(select.text("name"), "seven");
  EXPECT_DOUBLE_EQ(select.real("c"), 7.5);
  EXPECT_FALSE(select.isNull("extra"));
}

TEST(Statement, UnknownNamesAreProgrammingErrors) {
  testing::TempDir dir;
  Database db(dir.file("t.sqlite"));
  db.exec("CREATE TABLE t (a INTEGER)");
  auto insert = db.prepare("INSERT INTO t (a) VALUES (:a)");
  EXPECT_THROW(insert.bind(":b", std::int64_t{1}), Error);
  auto select = db.prepare("SELECT a FROM t");
  EXPECT_THROW(select.column("b"), Error);
}

}  // namespace
}  // namespace kwb
