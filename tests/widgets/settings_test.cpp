#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/settings.h"
#include "widgets/settingsdialog.h"

namespace kwb {

class SettingsTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    // Settings go to a folder of the test's own, never to the user's.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.path());
    QCoreApplication::setOrganizationName("kwb-test");
    QCoreApplication::setApplicationName("settings-test");
  }

  void rememberedAcrossStarts() {
    const Settings defaults = Settings::load();
    QVERIFY(defaults.databasePath.endsWith("history.sqlite"));
    QCOMPARE(defaults.device, 0);
    QCOMPARE(defaults.metrics, QString("none"));
    Settings changed{dir_.filePath("other.sqlite"), 1, 2.5, "memory,occupancy", dir_.filePath("k")};
    changed.save();
    const Settings back = Settings::load();
    QCOMPARE(back.databasePath, changed.databasePath);
    QCOMPARE(back.device, 1);
    QCOMPARE(back.budgetSeconds, 2.5);
    QCOMPARE(back.metrics, QString("memory,occupancy"));
    QCOMPARE(back.kernelsFolder, changed.kernelsFolder);
    QVERIFY(back.host.isEmpty());
    changed.host = "gpu@server";
    changed.hosts = {"gpu@server", "cluster-login"};
    changed.save();
    QCOMPARE(Settings::load().host, QString("gpu@server"));
    QCOMPARE(Settings::load().hosts, changed.hosts);
    QVERIFY(Settings::load().workerArguments().join(' ').endsWith("--host gpu@server"));
  }

  // The host list: this machine first, the remembered hosts, a typed one added, one forgotten.
  void dialogPicksAndRemembersHosts() {
    Settings shown{"/tmp/h.sqlite", 0, 0.5, "none", "/tmp/kernels"};
    shown.hosts = {"a@one", "two"};
    shown.host = "two";
    SettingsDialog dialog(shown);
    auto* hosts = dialog.findChild<QComboBox*>("hostCombo");
    QVERIFY(hosts);
    QCOMPARE(hosts->count(), 3);
    QCOMPARE(hosts->currentText(), QString("two"));
    hosts->setCurrentText("me@three");
    QCOMPARE(dialog.settings().host, QString("me@three"));
    QCOMPARE(dialog.settings().hosts, QStringList({"a@one", "two", "me@three"}));
    hosts->setCurrentIndex(1);
    dialog.findChild<QPushButton*>("forgetHostButton")->click();
    QVERIFY(dialog.settings().host.isEmpty());  // back to this machine
    QCOMPARE(dialog.settings().hosts, QStringList({"two"}));
    dialog.findChild<QLineEdit*>("devicesEdit")->setText(" 0, 1");
    QCOMPARE(dialog.settings().devices, QString("0,1"));
    QVERIFY(dialog.settings().workerArguments().join(' ').endsWith("--devices 0,1"));
    dialog.findChild<QCheckBox*>("slurmCheck")->setChecked(true);
    dialog.findChild<QLineEdit*>("gresEdit")->setText("gpu:1");
    QVERIFY(dialog.settings().workerArguments().join(' ').endsWith(
        "--devices 0,1 --slurm --tasks 4 --gres gpu:1"));
  }

  void dialogReturnsWhatItShows() {
    const Settings shown{"/tmp/h.sqlite", 2, 0.25, "divergence", "/tmp/kernels"};
    SettingsDialog dialog(shown);
    const Settings back = dialog.settings();
    QCOMPARE(back.databasePath, shown.databasePath);
    QCOMPARE(back.device, 2);
    QCOMPARE(back.budgetSeconds, 0.25);
    QCOMPARE(back.metrics, QString("divergence"));  // not edited here, kept
    QCOMPARE(back.kernelsFolder, QString("/tmp/kernels"));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::SettingsTest)
#include "settings_test.moc"
