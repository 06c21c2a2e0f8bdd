#include <QAbstractItemModelTester>
#include <QTest>

#include "widgets/kerneltreemodel.h"

namespace kwb {

class KernelTreeModelTest : public QObject {
  Q_OBJECT

 private slots:
  void treeOfFamiliesAndVariants() {
    KernelTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    VariantInfo memcpy{"copy", "memcpy", "driver copy", "the ceiling", {}, "n"};
    VariantInfo vectorized{"copy", "vectorized", "kernel copy", "wide accesses", {}, "n"};
    VariantInfo naive{"elementwise", "naive", "one per thread", "the baseline", {}, "n"};
    model.setCatalog({{"copy", "copies", {memcpy, vectorized}}, {"elementwise", "ops", {naive}}});

    QCOMPARE(model.rowCount(), 3);  // and "My kernels", empty
    const QModelIndex copy = model.index(0, 0);
    QCOMPARE(model.rowCount(copy), 2);
    QCOMPARE(model.data(copy).toString(), QString("copy"));
    const QModelIndex v = model.index(1, KernelTreeModel::SummaryColumn, copy);
    QCOMPARE(model.data(v).toString(), QString("kernel copy"));
    QCOMPARE(model.data(v, KernelTreeModel::TeachesRole).toString(), QString("wide accesses"));
    QCOMPARE(model.parent(v), copy);
    QVERIFY(model.variant(copy) == nullptr);
    QCOMPARE(QString::fromStdString(model.variant(v)->name), QString("vectorized"));

    const QModelIndex found = model.indexOf("elementwise", "naive");
    QVERIFY(found.isValid());
    QCOMPARE(model.data(found, KernelTreeModel::FamilyRole).toString(), QString("elementwise"));
    QVERIFY(!model.indexOf("elementwise", "warp_speed").isValid());
  }

  void kernelFilesUnderMyKernels() {
    KernelTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    VariantInfo memcpy{"copy", "memcpy", "driver copy", "the ceiling", {}, "n"};
    model.setCatalog({{"copy", "copies", {memcpy}}});
    VariantInfo mine{"permute", "my_transpose", "a tiled transpose", "tiles", {}, ""};
    model.setKernelFiles(
        {{"/k/t.cu", mine, {}}, {"/k/bad.cu", std::nullopt, "bad.cu:3: name: is missing"}});
    const QModelIndex files = model.index(1, 0);
    QCOMPARE(model.data(files).toString(), QString("My kernels"));
    QCOMPARE(model.rowCount(files), 2);
    const QModelIndex good = model.index(0, 0, files);
    QCOMPARE(model.data(good).toString(), QString("my_transpose (t.cu)"));  // the file differs
    QCOMPARE(model.data(good, KernelTreeModel::PathRole).toString(), QString("/k/t.cu"));
    QCOMPARE(model.data(good, KernelTreeModel::FamilyRole).toString(), QString("permute"));
    QCOMPARE(model.parent(good), files);
    QCOMPARE(QString::fromStdString(model.variant(good)->name), QString("my_transpose"));
    const QModelIndex bad = model.indexOfFile("/k/bad.cu");
    QCOMPARE(bad.row(), 1);
    QVERIFY(model.variant(bad) == nullptr);
    QCOMPARE(model.data(bad).toString(), QString("bad.cu"));
    QCOMPARE(model.data(model.index(1, KernelTreeModel::SummaryColumn, files)).toString(),
             QString("bad.cu:3: name: is missing"));
    // The catalog arriving later keeps the files, still last.
    model.setCatalog({{"copy", "copies", {memcpy}}, {"permute", "perms", {}}});
    QCOMPARE(model.indexOfFile("/k/t.cu").parent().row(), 2);
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::KernelTreeModelTest)
#include "kerneltreemodel_test.moc"
