// Reading a data file in parts on several threads gives its bytes exactly, whatever the
// part size and the number of threads, and a file named by a config is read the same way
// whether or not it is large enough to be read in parts.
#include "common/text_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "support/plugins.hpp"

namespace kexp_datasets {
namespace {

std::string numbered_lines(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += std::to_string(i * 7919 % 100003) + ",x\n";
  return text;
}

/// Sets the thread count for a scope, and gives the old one back when it ends.
class Threads {
 public:
  Threads() : saved_(kexp::thread_count()) {}
  ~Threads() { kexp::set_thread_count(saved_); }
  Threads(const Threads&) = delete;
  Threads& operator=(const Threads&) = delete;
  Threads(Threads&&) = delete;
  Threads& operator=(Threads&&) = delete;
  void set(int n) const { kexp::set_thread_count(n); }

 private:
  int saved_;
};

TEST(TextReader, AFileReadInPartsOnSeveralThreadsIsItsBytes) {
  const kexp::test::TempDir dir;
  const std::string content = numbered_lines(2000);  // about 13 kB
  const fs::path file = dir.write("data.csv", content);
  const Threads threads;
  for (const int t : {1, 2, 3}) {
    threads.set(t);
    // parts that divide the size and that do not, one byte, and more than the file
    for (const std::size_t part :
         {std::size_t{1000}, content.size() / 4, std::size_t{1}, content.size() + 5}) {
      const TextFile text =
          read_text_file(file, "train", "data.csv", 1U << 20U, ReadInParts{0, part});
      EXPECT_EQ(text.text, content) << t << " threads, parts of " << part;
    }
  }
  // read_parts alone reads every byte, in place
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  for (const int t : {1, 2}) {
    threads.set(t);
    std::string buffer(content.size(), '\0');
    int error = -1;
    EXPECT_EQ(read_parts(fd, buffer.data(), buffer.size(), 777, error), content.size());
    EXPECT_EQ(error, 0);
    EXPECT_EQ(buffer, content) << t << " threads";
    // asked for more than the file has: the bytes up to its end, read without a gap
    std::string longer(content.size() + 2000, '\0');
    EXPECT_EQ(read_parts(fd, longer.data(), longer.size(), 777, error), content.size());
    EXPECT_EQ(longer.substr(0, content.size()), content);
    EXPECT_EQ(error, 0);
  }
  ::close(fd);
  // below the size read in parts: one read, the same bytes
  EXPECT_EQ(read_text_file(file, "train", "data.csv", 1U << 20U).text, content);
}

TEST(TextReader, ReadingInPartsKeepsTheLimitAndTheEmptyFileError) {
  const kexp::test::TempDir dir;
  const std::string content = numbered_lines(100);
  const fs::path file = dir.write("data.csv", content);
  EXPECT_THROW(read_text_file(file, "train", "data.csv", 10, ReadInParts{0, 3}), kexp::DataError);
  // a file of exactly the limit is read whole, in parts, and no byte more is asked for
  EXPECT_EQ(read_text_file(file, "train", "data.csv", content.size(), ReadInParts{0, 3}).text,
            content);
  // parts of no size are read as parts of one byte
  EXPECT_EQ(read_text_file(file, "train", "data.csv", content.size(), ReadInParts{0, 0}).text,
            content);
  const fs::path blank = dir.write("blank.csv", "\n  \n\t\n");
  EXPECT_THROW(read_text_file(blank, "train", "blank.csv", 100, ReadInParts{0, 2}),
               kexp::DataError);
}

TEST(TextReader, ANulByteIsAnErrorAtItsPlaceThatNamesUtf16) {
  const kexp::test::TempDir dir;
  // "x,y\n1,2\n" as UTF-16 (little-endian, with its byte-order mark)
  std::string utf16 = "\xff\xfe";
  for (const char c : std::string("x,y\n1,2\n")) {
    utf16 += c;
    utf16 += '\0';
  }
  try {
    (void)read_text_file(dir.write("wide.csv", utf16), "train", "wide.csv", 1U << 20U);
    FAIL() << "a UTF-16 file was read";
  } catch (const kexp::DataError& e) {
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.where().column, 4);  // after the mark and 'x'
    EXPECT_NE(std::string(e.what()).find("UTF-16 text (it begins with UTF-16's byte-order mark)"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("save it as UTF-8"), std::string::npos);
  }
  // a NUL inside a field of a UTF-8 file, on its second line
  const std::string text = std::string("x,y\n1,2") + '\0' + "3\n";
  try {
    (void)read_text_file(dir.write("nul.csv", text), "train", "nul.csv", 1U << 20U);
    FAIL() << "a file with a NUL byte was read";
  } catch (const kexp::DataError& e) {
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.where().column, 4);
    EXPECT_NE(std::string(e.what()).find("binary, or UTF-16 text"), std::string::npos);
  }
}

}  // namespace
}  // namespace kexp_datasets
