// The result folder: its file names, the --force guard, reading it back.
#include "reporting/result_folder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <functional>

#include "kexp/error.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kConfig = "experiment: x\n";

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ResultFolder, NamesEveryFile) {
  const ResultFolder f("out");
  EXPECT_EQ(f.config_file(), fs::path("out/config.yaml"));
  EXPECT_EQ(f.manifest_file(), fs::path("out/manifest.json"));
  EXPECT_EQ(f.results_csv(), fs::path("out/results.csv"));
  EXPECT_EQ(f.results_jsonl(), fs::path("out/results.jsonl"));
  EXPECT_EQ(f.summary_file(), fs::path("out/summary.md"));
  EXPECT_EQ(f.plots_dir(), fs::path("out/plots"));
  EXPECT_EQ(f.prediction_file("0123456789abcdef", "2"),
            fs::path("out/predictions/0123456789abcdef-2.csv"));
}

TEST(ResultFolder, CreatesANewOrEmptyFolder) {
  const test::TempDir dir;
  const ResultFolder a =
      ResultFolder::create(dir.path() / "a" / "b", false, ResultFolder::Creator::Run, kConfig);
  EXPECT_TRUE(fs::is_directory(a.dir()));
  fs::create_directories(dir.path() / "empty");
  EXPECT_NO_THROW(
      ResultFolder::create(dir.path() / "empty", false, ResultFolder::Creator::Run, kConfig));
}

TEST(ResultFolder, ForceReplacesOnlyAResultFolder) {
  const test::TempDir dir;
  ResultFolder::create(dir.path() / "old", false, ResultFolder::Creator::Run, kConfig);
  dir.write("old/results.csv", "cell\n");
  const std::string without = message_of([&] {
    ResultFolder::create(dir.path() / "old", false, ResultFolder::Creator::Run, kConfig);
  });
  EXPECT_THAT(without, HasSubstr("already exists"));
  EXPECT_THAT(without, HasSubstr("--resume"));
  EXPECT_THAT(without, HasSubstr("--force"));
  EXPECT_TRUE(fs::exists(dir.path() / "old" / "results.csv"));
  {
    const ResultFolder again =
        ResultFolder::create(dir.path() / "old", true, ResultFolder::Creator::Run, kConfig);
    EXPECT_FALSE(fs::exists(dir.path() / "old" / "results.csv"));
    EXPECT_TRUE(again.is_marked());
  }

  // A folder with the files of a result folder but not made by kexp: a project of its own.
  dir.write("project/config.yaml", "mine: true\n");
  dir.write("project/manifest.json", "{}\n");
  EXPECT_THAT(message_of([&] {
                ResultFolder::create(dir.path() / "project", true, ResultFolder::Creator::Run,
                                     kConfig);
              }),
              HasSubstr("not a kexp result folder"));
  EXPECT_TRUE(fs::exists(dir.path() / "project" / "config.yaml"));

  dir.write("mine/notes.txt", "precious\n");
  const std::string forced = message_of([&] {
    ResultFolder::create(dir.path() / "mine", true, ResultFolder::Creator::Merge, kConfig);
  });
  EXPECT_THAT(forced, HasSubstr("kexp merge: "));
  EXPECT_THAT(forced, HasSubstr("not a kexp result folder"));
  EXPECT_TRUE(fs::exists(dir.path() / "mine" / "notes.txt"));

  const fs::path file = dir.write("a-file", "x");
  EXPECT_THAT(
      message_of([&] { ResultFolder::create(file, true, ResultFolder::Creator::Run, kConfig); }),
      HasSubstr("a file of that name exists"));
}

TEST(ResultFolder, ForceDeletesWhatKexpWroteAndKeepsTheRest) {
  const test::TempDir dir;
  ResultFolder::create(dir.path() / "out", false, ResultFolder::Creator::Run, kConfig);
  dir.write("out/results.csv", "cell\n");
  dir.write("out/plots/a.svg", "<svg/>");
  dir.write("out/results.csv.tmp123", "half");  // left by a write cut short
  dir.write("out/notes.txt", "mine\n");
  dir.write("out/analysis/fit.py", "print(1)\n");
  ::testing::internal::CaptureStderr();
  const ResultFolder again =
      ResultFolder::create(dir.path() / "out", true, ResultFolder::Creator::Run, "experiment: y\n");
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "results.csv"));
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "plots"));
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "results.csv.tmp123"));
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "notes.txt"));
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "analysis" / "fit.py"));
  EXPECT_THAT(err, HasSubstr("--force kept what kexp did not write in"));
  EXPECT_THAT(err, HasSubstr("analysis, notes.txt"));
  EXPECT_TRUE(again.mark_binds());  // bound to the new config
}

TEST(ResultFolder, AMarkCopiedIntoAnotherFolderDoesNotCount) {
  const test::TempDir dir;
  const ResultFolder made =
      ResultFolder::create(dir.path() / "made", false, ResultFolder::Creator::Run, kConfig);
  EXPECT_TRUE(made.mark_binds());
  // The mark alone, copied: no config.yaml to bind to.
  dir.write("project/plots/figure.svg", "<svg/>");
  fs::copy_file(made.mark_file(), dir.path() / "project" / ".kexp-folder");
  EXPECT_THAT(message_of([&] {
                ResultFolder::create(dir.path() / "project", true, ResultFolder::Creator::Run,
                                     kConfig);
              }),
              HasSubstr("not written for it"));
  // With a config.yaml of its own, still not bound.
  dir.write("project/config.yaml", "mine: true\n");
  EXPECT_THAT(message_of([&] {
                ResultFolder::create(dir.path() / "project", true, ResultFolder::Creator::Run,
                                     kConfig);
              }),
              HasSubstr("not written for it"));
  EXPECT_TRUE(fs::exists(dir.path() / "project" / "plots" / "figure.svg"));
  // A mark of a kexp before 5.0 (no sha256) binds nothing either.
  dir.write("old/.kexp-folder", "This folder was written by kexp.\n");
  dir.write("old/config.yaml", kConfig);
  EXPECT_FALSE(ResultFolder(dir.path() / "old").mark_binds());
  // A whole result folder copied elsewhere is still one.
  fs::copy(made.dir(), dir.path() / "copy", fs::copy_options::recursive);
  EXPECT_TRUE(ResultFolder(dir.path() / "copy").mark_binds());
}

TEST(ResultFolder, ForceNeverDeletesThroughALinkOrAParentPath) {
  const test::TempDir dir;
  ResultFolder::create(dir.path() / "real", false, ResultFolder::Creator::Run, kConfig);
  dir.write("real/results.csv", "cell\n");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "link");
  for (const std::string name : {"link", "link/"}) {
    EXPECT_THAT(message_of([&] {
                  ResultFolder::create(dir.path() / name, true, ResultFolder::Creator::Run,
                                       kConfig);
                }),
                HasSubstr("symbolic link"))
        << name;
  }
  EXPECT_TRUE(fs::exists(dir.path() / "real" / "results.csv"));
  // `real/sub/..` names `real`, but is not the folder named last.
  fs::create_directories(dir.path() / "real" / "sub");
  EXPECT_THAT(message_of([&] {
                ResultFolder::create(dir.path() / "real" / "sub" / "..", true,
                                     ResultFolder::Creator::Run, kConfig);
              }),
              HasSubstr("'..'"));
  EXPECT_TRUE(fs::exists(dir.path() / "real" / "results.csv"));
}

TEST(ResultFolder, RefusesControlCharactersAndInvalidUtf8) {
  const test::TempDir dir;
  const std::string with_nul = (dir.path() / "a").string() + std::string(1, '\0') + "b";
  EXPECT_THAT(message_of([&] { check_folder_path(with_nul, "output.dir"); }),
              HasSubstr("control character (code 0)"));
  EXPECT_THAT(message_of([&] { check_folder_path("a\nb", "--out"); }),
              HasSubstr("--out 'a\nb' holds a control character (code 10)"));
  EXPECT_THAT(message_of([&] { check_folder_path("caf\xc3", "--out"); }), HasSubstr("UTF-8"));
  EXPECT_NO_THROW(check_folder_path("résultats/σ-sweep", "--out"));
}

TEST(ResultFolder, ASecondWriterIsRefusedWithTheHoldersPid) {
  const test::TempDir dir;
  const ResultFolder first =
      ResultFolder::create(dir.path() / "out", false, ResultFolder::Creator::Run, kConfig);
  ResultFolder second(dir.path() / "out");
  const std::string message = message_of([&] { second.lock("--resume"); });
  EXPECT_THAT(message, HasSubstr("being written by another kexp process"));
  EXPECT_THAT(message, HasSubstr(fmt::format("pid {}", ::getpid())));
  EXPECT_THAT(message_of([&] {
                ResultFolder::create(dir.path() / "out", true, ResultFolder::Creator::Merge,
                                     kConfig);
              }),
              AllOf(HasSubstr("kexp merge --force"), HasSubstr("another kexp process")));
}

TEST(ResultFolder, KeepsOnlyCompleteRowsAndWholeJsonLines) {
  const test::TempDir dir;
  dir.write("results.csv", "cell,repeat,status\na,0,ok\nb,0,failed\nc,0,ok\nd,0\n");
  const ResultFolder folder(dir.path());
  const CsvTable t = folder.read_results();
  ASSERT_EQ(t.rows.size(), 3U);
  EXPECT_EQ(finished_runs(t), (std::set<RunKey>{{"a", "0"}, {"c", "0"}}));
  EXPECT_EQ(csv_text(t), "cell,repeat,status\na,0,ok\nb,0,failed\nc,0,ok\n");
  dir.write("results.jsonl",
            "{\"cell\":\"a\",\"repeat\":0,\"status\":\"ok\"}\n"
            "{\"cell\":\"b\",\"repeat\":0,\"status\":\"failed\"}\n"
            "{\"cell\":\"a\",\"repeat\":0,\"status\":\"ok\"}\n"
            "{\"cell\":\"c\",\"repeat\":0,\"sta");
  EXPECT_EQ(folder.filter_jsonl({{{"a", "0"}, "ok"}, {{"c", "0"}, "ok"}}),
            "{\"cell\":\"a\",\"repeat\":0,\"status\":\"ok\"}\n");
  EXPECT_THROW((void)ResultFolder(dir.path() / "nowhere").read_results(), ConfigError);
  EXPECT_THROW((void)folder.read_config(), ConfigError);
}

TEST(ResultFolder, PredictionsFileHasTheVarianceColumnsOnlyWhenThereIsOne) {
  const arma::vec y = {1.0, -2.0};
  Prediction p;
  p.mean = {0.5, -1.5};
  EXPECT_EQ(predictions_csv(y, p), "index,y_true,y_pred\n0,1,0.5\n1,-2,-1.5\n");
  p.var_f = {0.25, 0.5};
  EXPECT_EQ(predictions_csv(y, p),
            "index,y_true,y_pred,var_f,var_y\n0,1,0.5,0.25,0.25\n1,-2,-1.5,0.5,0.5\n");
  p.var_y = {1.25, 1.5};
  EXPECT_EQ(predictions_csv(y, p),
            "index,y_true,y_pred,var_f,var_y\n0,1,0.5,0.25,1.25\n1,-2,-1.5,0.5,1.5\n");
}

}  // namespace
}  // namespace kexp::core
