#include "core/protocol.h"

#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/stats.h"

namespace kwb {
namespace {

using namespace protocol;
using nlohmann::json;

Kernel kernel() {
  return {"permute", "tiled", {{"shape", "64,3,224,224"}, {"tile_size", "32"}}};
}

MeasureSettings settings() {
  return {.mode = "hot",
          .budget = 0.25,
          .minSamples = 12,
          .maxSamples = 400,
          .targetRsd = 0.01,
          .seed = 7,
          .verifyOnly = true,
          .metrics = "memory",
          .tags = {"lesson:permute-5-padding"}};
}

void expectSame(const MeasureSettings& a, const MeasureSettings& b) {
  EXPECT_EQ(a.mode, b.mode);
  EXPECT_EQ(a.budget, b.budget);
  EXPECT_EQ(a.minSamples, b.minSamples);
  EXPECT_EQ(a.maxSamples, b.maxSamples);
  EXPECT_EQ(a.targetRsd, b.targetRsd);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.verifyOnly, b.verifyOnly);
  EXPECT_EQ(a.metrics, b.metrics);
  EXPECT_EQ(a.tags, b.tags);
}

void expectSame(const Kernel& a, const Kernel& b) {
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.params, b.params);
}

// Encodes a request or a reply as one line and decodes it again.
template <typename Message>
Message roundTrip(const Message& message) {
  const std::string line = encode(message);
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line per message";
  Message back;
  if constexpr (std::is_same_v<Message, Request>)
    back = decodeRequest(line);
  else
    back = decodeReply(line);
  EXPECT_EQ(back.id, message.id);
  EXPECT_EQ(back.type(), message.type());
  return back;
}

TEST(Protocol, EveryRequestRoundTrips) {
  roundTrip<Request>({"l", ListRequest{}});
  roundTrip<Request>({"d", DevicesRequest{}});
  roundTrip<Request>({"x", ShutdownRequest{}});
  expectSame(
      std::get<ResolveRequest>(roundTrip<Request>({"q", ResolveRequest{kernel()}}).body).kernel,
      kernel());
  expectSame(std::get<SassRequest>(roundTrip<Request>({"s", SassRequest{kernel()}}).body).kernel,
             kernel());
  const auto run =
      std::get<RunRequest>(roundTrip<Request>({"r", RunRequest{kernel(), settings()}}).body);
  expectSame(run.kernel, kernel());
  expectSame(run.options, settings());
  const auto sweep = std::get<SweepRequest>(
      roundTrip<Request>(
          {"w", SweepRequest{kernel(), {"tile_size=16,32", "padding=off,on"}, settings()}})
          .body);
  expectSame(sweep.kernel, kernel());
  EXPECT_EQ(sweep.axes, (std::vector<std::string>{"tile_size=16,32", "padding=off,on"}));
  expectSame(sweep.options, settings());
  EXPECT_EQ(std::get<CancelRequest>(roundTrip<Request>({"c", CancelRequest{"w"}}).body).target,
            "w");
  TuneSettings t;
  t.axes = {"block_size=32:1024:*2", "pack_size=1,2,4"};
  t.restrictions = {"block_size * pack_size <= 2048"};
  t.strategy = "genetic";
  t.objective = "time,energy";
  t.searchBudget = "90s";
  t.patience = 20;
  t.confirm = 3;
  t.searchSeed = 7;
  t.rerun = true;
  const auto tune =
      std::get<TuneRequest>(roundTrip<Request>({"t", TuneRequest{kernel(), t, settings()}}).body);
  expectSame(tune.kernel, kernel());
  expectSame(tune.options, settings());
  EXPECT_EQ(tune.tune.axes, t.axes);
  EXPECT_EQ(tune.tune.restrictions, t.restrictions);
  EXPECT_EQ(tune.tune.strategy, "genetic");
  EXPECT_EQ(tune.tune.objective, "time,energy");
  EXPECT_EQ(tune.tune.searchBudget, "90s");
  EXPECT_EQ(tune.tune.patience, 20u);
  EXPECT_EQ(tune.tune.confirm, 3u);
  EXPECT_EQ(tune.tune.searchSeed, 7u);
  EXPECT_TRUE(tune.tune.rerun);
}

// A copy ceiling goes only where the client gives one: a worker of an older build refuses options
// it does not know.
TEST(Protocol, ACopyCeilingTravelsOnlyWhereGiven) {
  EXPECT_EQ(encode(Request{"r", RunRequest{kernel(), settings()}}).find("copy_ceiling"),
            std::string::npos);
  MeasureSettings given = settings();
  given.copyCeiling = CopyCeiling{3.1e12, 1u << 30, "vectorized", 1764000000000};
  const auto back =
      std::get<RunRequest>(roundTrip<Request>({"r", RunRequest{kernel(), given}}).body)
          .options.copyCeiling;
  ASSERT_TRUE(back);
  EXPECT_EQ(back->bandwidth, 3.1e12);
  EXPECT_EQ(back->bytes, 1u << 30);
  EXPECT_EQ(back->method, "vectorized");
  EXPECT_EQ(back->measuredAt, 1764000000000);
}

// The hello lists every option a request may carry, one word each.
TEST(Protocol, TheHelloListsTheOptionsTaken) {
  const std::vector<std::string> names = optionNames();
  EXPECT_EQ(names.size(), 11u);
  EXPECT_EQ(names.front(), "mode");
  EXPECT_EQ(names.back(), "copy_ceiling");
  for (const std::string& name : names)
    EXPECT_EQ(name.find_first_of(", "), std::string::npos) << "'" << name << "'";
}

TEST(Protocol, EveryReplyRoundTrips) {
  const nlohmann::json tuned{{"strategy", "annealing"}, {"evaluations", {1, 2}}};
  EXPECT_EQ(std::get<Tuned>(roundTrip<Reply>({"t", Tuned{tuned}}).body).report, tuned);
  const nlohmann::json evaluation{{"params", {{"block_size", "256"}}}, {"median_s", 1e-5}};
  const auto evaluated =
      std::get<Evaluated>(roundTrip<Reply>({"t", Evaluated{3, evaluation}}).body);
  EXPECT_EQ(evaluated.number, 3u);
  EXPECT_EQ(evaluated.evaluation, evaluation);
  const auto hello = std::get<Hello>(roundTrip<Reply>({"", Hello{"1.2.3"}}).body);
  EXPECT_EQ(hello.appVersion, "1.2.3");
  EXPECT_EQ(hello.protocol, kVersion);
  EXPECT_EQ(hello.options, optionNames());
  // A worker of an older build lists no options: it takes none newer than its own.
  const auto older = std::get<Hello>(
      decodeReply(R"({"v":2,"type":"hello","app_version":"0.1.0","protocol":2})").body);
  EXPECT_TRUE(older.options.empty());

  FamilyInfo family{"copy", "copies", {{"copy", "memcpy", "cudaMemcpy", "the ceiling", {}, "n"}}};
  const auto catalog = std::get<Catalog>(roundTrip<Reply>({"l", Catalog{{family}}}).body);
  ASSERT_EQ(catalog.families.size(), 1u);
  EXPECT_EQ(catalog.families[0].variants[0].teaches, "the ceiling");

  DeviceInfo device;
  device.name = "NVIDIA H100 80GB HBM3";
  device.smCount = 132;
  const auto devices = std::get<DeviceList>(roundTrip<Reply>({"d", DeviceList{{device}}}).body);
  ASSERT_EQ(devices.devices.size(), 1u);
  EXPECT_EQ(devices.devices[0].smCount, 132);

  ParamSet params;
  params.set("n", "1024");
  ParamSet derived;
  derived.set("grid", "4");
  const auto resolved =
      std::get<Resolved>(roundTrip<Reply>({"q", Resolved{params, derived, 8192, "H100", ""}}).body);
  EXPECT_EQ(resolved.params.get("n"), "1024");
  ASSERT_TRUE(resolved.derived);
  EXPECT_EQ(resolved.derived->get("grid"), "4");
  EXPECT_EQ(resolved.bytes, 8192u);
  EXPECT_EQ(resolved.device, "H100");
  const auto noDevice = std::get<Resolved>(
      roundTrip<Reply>({"q", Resolved{params, std::nullopt, 0, "", "no GPU"}}).body);
  EXPECT_FALSE(noDevice.derived);
  EXPECT_EQ(noDevice.noDevice, "no GPU");

  SassReport report;
  report.family = "copy";
  report.arch = "sm_90";
  report.kernels = {{"_Z4copy", "copy", "/*0000*/ EXIT ;"}};
  const auto sass = std::get<SassListing>(roundTrip<Reply>({"s", SassListing{report}}).body);
  EXPECT_EQ(sass.report.arch, "sm_90");
  ASSERT_EQ(sass.report.kernels.size(), 1u);
  EXPECT_EQ(sass.report.kernels[0].listing, "/*0000*/ EXIT ;");

  const auto progress =
      std::get<Progress>(roundTrip<Reply>({"r", Progress{2, 8, 1.5, "n=2^20"}}).body);
  EXPECT_EQ(progress.done, 2u);
  EXPECT_EQ(progress.total, 8u);
  EXPECT_DOUBLE_EQ(progress.etaSeconds, 1.5);
  EXPECT_EQ(progress.text, "n=2^20");

  RunResult run;
  run.family = "copy";
  run.variant = "memcpy";
  run.samples = {1e-6, 2e-6, 3e-6};
  run.stats = summarize(run.samples);
  const auto result = std::get<Result>(roundTrip<Reply>({"r", Result{3, run, 42}}).body);
  EXPECT_EQ(result.index, 3u);
  EXPECT_EQ(result.runId, 42);
  EXPECT_EQ(result.run.variant, "memcpy");
  EXPECT_EQ(result.run.samples.size(), 3u);
  EXPECT_FALSE(std::get<Result>(roundTrip<Reply>({"r", Result{0, run, std::nullopt}}).body).runId);

  const auto done = std::get<Done>(roundTrip<Reply>({"r", Done{8, true}}).body);
  EXPECT_EQ(done.completed, 8u);
  EXPECT_TRUE(done.cancelled);

  const auto failure = std::get<Failure>(
      roundTrip<Reply>({"r", Failure::of(paramError("block_size", "too big"))}).body);
  EXPECT_EQ(failure.kind, ErrorKind::Param);
  EXPECT_EQ(failure.param, "block_size");
  EXPECT_EQ(failure.message, "parameter 'block_size': too big");
}

// The error names the field at fault, with its path, and keeps the id where it could be read.
std::string fieldOf(const std::string& line, bool request = true) {
  try {
    if (request)
      decodeRequest(line);
    else
      decodeReply(line);
  } catch (const DecodeError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find(e.field()), std::string::npos) << e.what();
    return e.field();
  }
  ADD_FAILURE() << "accepted: " << line;
  return {};
}

TEST(Protocol, DecodeErrorsNameTheField) {
  EXPECT_EQ(fieldOf(""), "");
  EXPECT_EQ(fieldOf("[1,2]"), "");
  EXPECT_EQ(fieldOf(R"({"type":"list"})"), "v");
  EXPECT_EQ(fieldOf(R"({"v":"1","type":"list"})"), "v");
  EXPECT_EQ(fieldOf(R"({"v":2})"), "type");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"frobnicate"})"), "type");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"list","id":7})"), "id");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"progress","id":"p"})"), "type");  // a reply, not a request
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","variant":"memcpy"})"), "family");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","family":1,"variant":"memcpy"})"), "family");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","family":"copy","variant":"memcpy","params":[1]})"),
            "params");
  EXPECT_EQ(
      fieldOf(R"({"v":2,"type":"run","family":"copy","variant":"memcpy","params":{"n":true}})"),
      "params.n");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","family":"copy","variant":"memcpy",)"
                    R"("options":{"budget_s":"fast"}})"),
            "options.budget_s");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","family":"copy","variant":"memcpy",)"
                    R"("options":{"budget":1}})"),
            "options.budget");  // a renamed option is refused, never silently defaulted
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","family":"copy","variant":"memcpy",)"
                    R"("options":{"min_samples":-3}})"),
            "options.min_samples");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","family":"copy","variant":"memcpy","options":)"
                    R"({"copy_ceiling":{"bandwidth":0,"bytes":0,"method":"","measured_at":0}}})"),
            "options.copy_ceiling.bandwidth");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"run","family":"copy","variant":"memcpy","options":)"
                    R"({"copy_ceiling":{"bandwidth":1e12}}})"),
            "options.copy_ceiling.bytes");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"sweep","family":"copy","variant":"memcpy","axes":[1]})"),
            "axes");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"cancel","id":"c"})"), "target");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"tune","family":"copy","variant":"memcpy"})"), "tune");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"tune","family":"copy","variant":"memcpy","tune":{}})"),
            "tune.axes");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"tune","family":"copy","variant":"memcpy",)"
                    R"("tune":{"axes":[],"budget_s":3}})"),
            "tune.budget_s");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"tuned","id":"t","report":[]})", false), "report");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"evaluated","id":"t","number":1,"evaluation":3})", false),
            "evaluation");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"done","id":"r","completed":1})", false), "cancelled");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"progress","id":"r","done":"1","total":2,"eta_s":0,)"
                    R"("text":""})",
                    false),
            "done");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"result","id":"r","index":0,"run":3,"run_id":null})", false),
            "run");
  EXPECT_EQ(fieldOf(R"({"v":2,"type":"error","code":"oops","message":"m"})", false), "code");
}

TEST(Protocol, AnotherVersionIsNamedWithBoth) {
  try {
    decodeReply(R"({"v":1,"type":"hello","app_version":"0.9","protocol":1})");
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_EQ(e.field(), "v");
    EXPECT_EQ(e.otherVersion(), 1);
    EXPECT_NE(std::string(e.what()).find("protocol version 1"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("speaks 2"), std::string::npos);
  }
  try {
    decodeRequest(R"({"v":3,"type":"list","id":"q"})");
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_EQ(e.id(), "q");  // the error reply can still name the request
  }
}

// A line that is not UTF-8 is refused, and the error quoting it can still be sent.
TEST(Protocol, BytesThatAreNotUtf8NeverStopAReply) {
  try {
    decodeRequest("\xff\xfe{");
    FAIL();
  } catch (const DecodeError& e) {
    const std::string line = encode(Reply{"", Failure::of(e)});
    EXPECT_EQ(std::get<Failure>(decodeReply(line).body).kind, ErrorKind::Usage);
  }
}

TEST(Protocol, ParamsAcceptNumbersAsText) {
  const Request r =
      decodeRequest(R"({"v":2,"type":"resolve","id":"q","family":"copy","variant":"vectorized",)"
                    R"("params":{"n":1024,"dtype":"f16"}})");
  EXPECT_EQ(r.kernel()->params.at("n"), "1024");
  EXPECT_EQ(r.kernel()->params.at("dtype"), "f16");
  EXPECT_FALSE(r.isJob());
  EXPECT_TRUE(decodeRequest(R"({"v":2,"type":"sass","family":"a","variant":"b"})").isJob());
}

// A session recorded from a real worker on an H100 still decodes: clients built against this
// version read what workers of this version write.
TEST(Protocol, RecordedGpuSessionDecodes) {
  std::ifstream file(KWB_FIXTURES_DIR "/worker/h100_run.jsonl");
  ASSERT_TRUE(file) << "missing fixture";
  std::vector<Reply> replies;
  for (std::string line; std::getline(file, line);) replies.push_back(decodeReply(line));
  ASSERT_GE(replies.size(), 3u);
  EXPECT_EQ(replies.front().type(), Type::Hello);
  const auto result = std::find_if(replies.begin(), replies.end(),
                                   [](const Reply& m) { return m.type() == Type::Result; });
  ASSERT_NE(result, replies.end());
  const RunResult& run = std::get<Result>(result->body).run;
  EXPECT_EQ(run.family, "copy");
  EXPECT_EQ(run.status, RunStatus::Ok);
  EXPECT_TRUE(run.verification.passed);
  EXPECT_GE(run.stats.count, 10u);
  EXPECT_EQ(run.samples.size(), run.stats.count);
  EXPECT_GT(run.bandwidth, 0);
  EXPECT_GT(run.ceilingBandwidth, 0);
  EXPECT_EQ(replies.back().type(), Type::Done);
}

}  // namespace
}  // namespace kwb
