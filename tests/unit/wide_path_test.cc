// base/wide_path.h (Windows only: built into the unit tests' .exe, which
// runs under wine): UTF-8 paths for the wide APIs, and the file layer's
// round trip through paths past MAX_PATH with CJK and accented names.
#include "base/wide_path.h"

#include <windows.h>

#include "test_support.h"

namespace ronin {
namespace {

std::wstring CurrentDirectory() {
  std::wstring dir(GetCurrentDirectoryW(0, nullptr), L'\0');
  dir.resize(GetCurrentDirectoryW(static_cast<DWORD>(dir.size()), &dir[0]));
  return dir;
}

// A relative path of `levels` directories whose names are CJK and
// accented, 300+ characters long from a few levels on.
std::string DeepUtf8Path(int levels) {
  std::string path;
  for (int i = 0; i < levels; ++i)
    path += (i ? "/" : "") + std::string("\xe6\x97\xa5\xe6\x9c\xac-caf\xc3\xa9-") + std::string(20, 'd') +
            std::to_string(i);
  return path;
}

TEST(WidePathTest, Utf8RoundTrip) {
  std::string text = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80";  // é, 日本, an emoji (a pair)
  std::wstring wide = WideText(text);
  EXPECT_EQ(wide, L"caf\u00e9 \u65e5\u672c \xd83d\xde00");
  EXPECT_EQ(Utf8Text(wide), text);
  EXPECT_EQ(WideText(""), L"");
  EXPECT_EQ(Utf8Text(L""), "");
}

TEST(WidePathTest, ShortPathsStayAsTheyAre) {
  EXPECT_EQ(WidePath("a/b\\c.o"), L"a/b\\c.o");
  EXPECT_EQ(WidePath("NUL"), L"NUL");
  EXPECT_EQ(WidePath("caf\xc3\xa9.c"), L"caf\u00e9.c");
  EXPECT_EQ(WidePath("C:/x/../y"), L"C:/x/../y");
}

TEST(WidePathTest, LongPathsBecomeAbsoluteWithTheLongPrefix) {
  std::string name(300, 'x');
  EXPECT_EQ(WidePath("d/../" + name), L"\\\\?\\" + CurrentDirectory() + L"\\" + std::wstring(300, L'x'));
  EXPECT_EQ(WidePath("C:/a/./b/" + name), L"\\\\?\\C:\\a\\b\\" + std::wstring(300, L'x'));
  EXPECT_EQ(WidePath("\\\\server\\share\\" + name), L"\\\\?\\UNC\\server\\share\\" + std::wstring(300, L'x'));
  // Already in the long form: taken literally, as Windows does.
  EXPECT_EQ(WidePath("\\\\?\\C:\\a\\..\\" + name), L"\\\\?\\C:\\a\\..\\" + std::wstring(300, L'x'));
}

TEST(WidePathTest, RelativePathIsLongWhenTheWorkingDirectoryMakesItSo) {
  // Short relative, long absolute: the limit is on what Windows resolves.
  std::string name(MAX_PATH - 20, 'y');
  std::wstring expected = CurrentDirectory() + L"\\" + std::wstring(MAX_PATH - 20, L'y');
  ASSERT_GE(expected.size(), static_cast<size_t>(MAX_PATH - 12));
  EXPECT_EQ(WidePath(name), L"\\\\?\\" + expected);
}

TEST(WidePathTest, CommandLinesAsLongAsCreateProcessATakes) {
  std::wstring line;
  EXPECT_TRUE(WideCommandLine("echo caf\xc3\xa9", &line));
  EXPECT_EQ(line, L"echo caf\u00e9");
  EXPECT_TRUE(WideCommandLine(std::string(32766, 'x'), &line));
  EXPECT_EQ(line.size(), 32766u);
  SetLastError(0);
  EXPECT_FALSE(WideCommandLine(std::string(32767, 'x'), &line));
  EXPECT_EQ(GetLastError(), static_cast<DWORD>(ERROR_INVALID_PARAMETER));
  // Counted in UTF-16 units, as Windows counts: 16,384 CJK characters are 49,152 bytes.
  std::string cjk;
  for (int i = 0; i < 16384; ++i) cjk += "\xe6\x97\xa5";
  EXPECT_TRUE(WideCommandLine(cjk, &line));
}

TEST(WidePathTest, FilesPastMaxPathWithUtf8Names) {
  test::ScopedTempDir temp;
  std::string dir = temp.path() + "/" + DeepUtf8Path(12);
  ASSERT_GT(dir.size(), 400u);
  RealDiskInterface disk;
  ASSERT_TRUE(disk.MakeDirs(dir + "/x"));
  std::string file = dir + "/\xc3\xa9t\xc3\xa9.txt";
  ASSERT_TRUE(disk.WriteFile(file, "long\n"));
  std::string err;
  EXPECT_GT(disk.Stat(file, &err), 0) << err;
  EXPECT_EQ(err, "");
  disk.AllowStatCache(true);  // the directory listing (FindFirstFileExW)
  EXPECT_GT(disk.Stat(file, &err), 0) << err;
  EXPECT_EQ(disk.Stat(dir + "/missing", &err), 0);
  disk.AllowStatCache(false);
  std::string contents;
  EXPECT_EQ(disk.ReadFile(file, &contents, &err), FileReader::Status::kOkay) << err;
  EXPECT_EQ(contents, "long\n");
  FileStatus status;
  EXPECT_TRUE(StatPath(file.c_str(), &status));
  EXPECT_EQ(status.size, 5u);
  EXPECT_TRUE(RenameReplacing(file.c_str(), (dir + "/moved").c_str()));
  EXPECT_TRUE(disk.SetMtime(dir + "/moved", 12345, &err)) << err;
  EXPECT_EQ(disk.Stat(dir + "/moved", &err), 12345);
  EXPECT_EQ(disk.RemoveFile(dir + "/moved"), 0);
  EXPECT_EQ(disk.RemoveFile(dir + "/moved"), 1);
  EXPECT_TRUE(EmptyDirectory(temp.path() + "/" + DeepUtf8Path(1), &err)) << err;
  EXPECT_FALSE(IsRealDirectory(dir));
}

}  // namespace
}  // namespace ronin
