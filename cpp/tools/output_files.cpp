#include "output_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace attention::train {
namespace {

namespace fs = std::filesystem;

Status Refused(const std::string& flag, const std::string& what) {
  return Status(ErrorCode::kInvalidArgument, flag, what);
}

std::string Why(int error) { return std::strerror(error); }

std::string KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string FolderOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

std::string Resolved(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return "";
  std::string text = real;
  std::free(real);
  return text;
}

std::string TemporaryBeside(const std::string& target) {
  return (fs::path(FolderOf(target)) /
          ("." + fs::path(target).filename().string() + "." + std::to_string(::getpid()) + ".tmp"))
      .string();
}

// What a path is, for comparing two: its device and inode where it exists, else the resolved
// path it would be made at.
struct Identity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string resolved;
  bool Same(const Identity& other) const {
    if (exists && other.exists) return device == other.device && inode == other.inode;
    return !resolved.empty() && resolved == other.resolved;
  }
};

Status CheckOne(const PathFlag& given, bool force, bool resumable, OutputFile* out,
                Identity* identity) {
  const std::string flag = "--" + given.flag;
  const std::string& path = given.path;
  out->flag = given.flag;
  out->path = path;
  out->target = path;
  struct stat link_info, info;
  if (::lstat(path.c_str(), &link_info) != 0) {
    if (errno != ENOENT) return Refused(given.flag, "cannot write " + path + ": " + Why(errno));
    const std::string folder = FolderOf(path);
    struct stat folder_info;
    if (::stat(folder.c_str(), &folder_info) != 0) {
      return Refused(given.flag,
                     "cannot write " + path + ": " + Why(errno) + " (no folder " + folder + ")");
    }
    if (!S_ISDIR(folder_info.st_mode)) {
      return Refused(given.flag, "cannot write " + path + ": " + folder + " is not a folder");
    }
    identity->resolved = (fs::path(Resolved(folder)) / fs::path(path).filename()).string();
  } else {
    if (S_ISLNK(link_info.st_mode)) {
      if (::stat(path.c_str(), &info) != 0) {
        std::error_code ignored;
        const std::string to = fs::read_symlink(path, ignored).string();
        return Refused(given.flag, flag + " (" + path + ") is a symbolic link to a missing file (" +
                                       to + "); name the file itself, or remove the link");
      }
      out->target = Resolved(path);
    } else {
      info = link_info;
    }
    if (!S_ISREG(info.st_mode)) {
      return Refused(given.flag,
                     flag + " (" + path + ") must be a regular file, not " + KindOf(info.st_mode));
    }
    if (!force && !resumable) {
      return Refused(given.flag, path + " exists; give --force to replace it, or another " + flag);
    }
    out->exists = true;
    identity->exists = true;
    identity->device = info.st_dev;
    identity->inode = info.st_ino;
    identity->resolved = Resolved(path);
  }
  // The file is written to this temporary one first: making it now proves the folder takes it.
  const std::string temporary = TemporaryBeside(out->target);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Refused(given.flag, "cannot write " + path + ": " + Why(errno) + " (in " +
                                   FolderOf(out->target) + ")");
  }
  ::close(fd);
  ::unlink(temporary.c_str());
  return Status::Ok();
}

Identity InputIdentity(const std::string& path) {
  Identity identity;
  struct stat info;
  if (::stat(path.c_str(), &info) == 0) {
    identity.exists = true;
    identity.device = info.st_dev;
    identity.inode = info.st_ino;
  }
  identity.resolved = Resolved(path);
  return identity;
}

}  // namespace

Status CheckOutputs(const std::vector<PathFlag>& outputs, const std::vector<PathFlag>& inputs,
                    bool force, const std::string& resumable, std::vector<OutputFile>* checked) {
  checked->clear();
  std::vector<Identity> identities;
  for (const PathFlag& given : outputs) {
    if (given.path.empty()) continue;
    OutputFile out;
    Identity identity;
    const bool resumes = given.flag == resumable;
    if (Status status = CheckOne(given, force, resumes, &out, &identity); !status.ok()) {
      return status;
    }
    for (size_t i = 0; i < checked->size(); ++i) {
      if (identity.Same(identities[i])) {
        return Refused(given.flag, "--" + (*checked)[i].flag + " and --" + given.flag +
                                       " name the same file (" + given.path +
                                       "); each output needs a file of its own");
      }
    }
    for (const PathFlag& input : inputs) {
      if (input.path.empty()) continue;
      if (identity.Same(InputIdentity(input.path))) {
        return Refused(given.flag, "--" + given.flag + " (" + given.path + ") names the --" +
                                       input.flag + " file; an output must not replace an input");
      }
    }
    checked->push_back(out);
    identities.push_back(identity);
  }
  return Status::Ok();
}

namespace {

// Writes every byte to `fd`: false (errno set) when the disk, a quota or `ulimit -f` stops it.
bool WriteAll(int fd, const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

Status WriteFileWhole(const std::string& flag, const std::string& target,
                      const std::vector<uint8_t>& bytes, bool replace) {
  const std::string temporary = TemporaryBeside(target);
  const auto failed = [&](const std::string& what, int error) {
    ::unlink(temporary.c_str());
    return Refused(flag, "cannot write " + target + ": " + what + Why(error) +
                             (replace ? "; the old file, if any, is kept" : ""));
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return Refused(flag, "cannot write " + target + ": " + Why(errno));
  // A replaced file keeps its permissions.
  struct stat old;
  if (::stat(target.c_str(), &old) == 0) ::fchmod(fd, old.st_mode & 07777);
  if (!WriteAll(fd, bytes) || ::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    return failed("", error);
  }
  if (::close(fd) != 0) return failed("", errno);
  if (replace) {
    if (::rename(temporary.c_str(), target.c_str()) != 0) return failed("rename: ", errno);
  } else if (::link(temporary.c_str(), target.c_str()) == 0) {
    ::unlink(temporary.c_str());
  } else if (errno == EEXIST) {
    ::unlink(temporary.c_str());
    return Refused(flag, target + " appeared during training; give --force to replace it");
  } else if (errno == EPERM || errno == ENOTSUP || errno == ENOSYS) {
    // A file system without hard links.
    if (::rename(temporary.c_str(), target.c_str()) != 0) return failed("rename: ", errno);
  } else {
    return failed("link: ", errno);
  }
  // The rename itself reaches the disk with the folder's entry.
  const int folder = ::open(FolderOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder >= 0) {
    ::fsync(folder);
    ::close(folder);
  }
  return Status::Ok();
}

}  // namespace attention::train
