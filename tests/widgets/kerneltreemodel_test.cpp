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

    QCOMPARE(model.rowCount(), 2);
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
};

}  // namespace kwb

QTEST_MAIN(kwb::KernelTreeModelTest)
#include "kerneltreemodel_test.moc"
