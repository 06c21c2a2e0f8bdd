#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "core/lesson.h"
#include "widgets/explainview.h"
#include "widgets/metatypes.h"
#include "widgets/sasspane.h"
#include "widgets/sassview.h"
#include "widgets/workerclient.h"

namespace kwb {

namespace {

// The packed kernel of f16 gelu in packs of `pack`, whichever index width the launch chose.
bool isHalfGelu(const QString& kernel, int pack) {
  return kernel.startsWith(QString("packedKernel<%1, 1, false, ").arg(pack)) &&
         kernel.contains(", Gelu, __half, __half");
}

}  // namespace

// The SASS view against the real `kwb worker`: it needs a GPU to learn which kernels a call
// launches, and reports itself skipped without one.
class SassViewGpuTest : public QObject {
  Q_OBJECT

  static FamilyInfo elementwise() {
    FamilyInfo family{"elementwise", "", {}};
    for (const char* name : {"naive", "packed"}) {
      VariantInfo v;
      v.family = "elementwise";
      v.name = name;
      v.params = {choiceParam("dtype", ParamRole::Problem, {"f32", "f16"}, "f32", "", "")};
      if (std::string(name) == "packed")
        v.params.push_back(
            choiceParam("pack_size", ParamRole::Launch, {"auto", "1", "2", "4"}, "auto", "", ""));
      family.variants.push_back(v);
    }
    return family;
  }

 private slots:
  // On a GPU both sides fill with their kernels; without one, both say why.
  void viewAsksTheWorkerForBothSides() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    SassView view(&worker);
    view.setCatalog({elementwise()});
    QSignalSpy settled(&view, &SassView::settled);
    view.setSelection("elementwise", "packed", {{"dtype", "f32"}, {"pack_size", "4"}});
    QCOMPARE(settled.count(), 0);  // hidden: nothing asked
    view.resize(1200, 700);
    view.show();
    QVERIFY(settled.wait(120000));
    if (view.pane(0)->status().contains("no CUDA device")) {
      QVERIFY(view.pane(1)->status().contains("no CUDA device"));
      QSKIP("no CUDA device: the listings need one to learn which kernels a call launches");
    }
    QVERIFY2(view.pane(0)->kernelNames().value(0).startsWith("packedKernel<4"),
             qPrintable(view.pane(0)->status()));
    QVERIFY(view.pane(0)->counts().contains("LDG.E.128"));
    QVERIFY2(view.pane(1)->kernelNames().value(0).startsWith("naiveKernel"),
             qPrintable(view.pane(1)->status()));
    QVERIFY(!view.pane(1)->counts().contains(".128"));
    // The same configuration again asks nothing; another variant on the right asks for it alone.
    view.setSelection("elementwise", "packed", {{"dtype", "f32"}, {"pack_size", "4"}});
    QVERIFY(!settled.wait(500));
    QVERIFY(view.setCompareVariant("packed"));
    QVERIFY(settled.wait(120000));
    QVERIFY(view.pane(1)->counts().contains("LDG.E.128"));
    QVERIFY(!view.setCompareVariant("warp_speed"));

    // A lesson: its step against its baseline, whatever is selected; f16 in packs of 4 and 2.
    view.showLesson(*findLesson("elementwise-4-pack-4"));
    QVERIFY(settled.wait(120000));
    QVERIFY2(isHalfGelu(view.pane(0)->kernelNames().value(0), 4),
             qPrintable(view.pane(0)->kernelNames().join(',')));
    QVERIFY2(isHalfGelu(view.pane(1)->kernelNames().value(0), 2),
             qPrintable(view.pane(1)->kernelNames().join(',')));
    QVERIFY(view.pane(0)->counts().contains("LDG.E.64"));  // 4 halves: 8 bytes a load
  }

  // The explain view compares two runs' access widths on request, through the same worker.
  void explainReadsTheWidthsOfTwoRunsMachineCode() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    ExplainView view;
    view.setWorker(&worker);
    RunResult naive, packed;
    naive.family = packed.family = "elementwise";
    naive.variant = "naive";
    packed.variant = "packed";
    naive.problem.set("dtype", "f32");
    packed.problem.set("dtype", "f32");
    packed.launch.set("pack_size", "4");
    view.setRuns(0, naive, 0, packed);
    QSignalSpy read(&view, &ExplainView::sassRead);
    view.findChild<QPushButton*>()->click();
    QVERIFY(read.wait(120000));
    if (view.sassReading().contains("no CUDA device"))
      QSKIP("no CUDA device: the listings need one to learn which kernels a call launches");
    QVERIFY2(view.sassReading().contains("-> ") &&
                 view.sassReading().contains("a 128-bit access moves what 4 32-bit ones did"),
             qPrintable(view.sassReading()));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::SassViewGpuTest)
#include "sassview_gpu_test.moc"
