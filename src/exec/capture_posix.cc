// capture.h on POSIX: posix_spawn of /bin/sh -c with a pipe as stdout.
#include "exec/capture.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "base/util.h"

extern char** environ;

namespace ronin {

int RunCapturingStdout(const std::string& command, const std::string* environment, std::string* output) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) < 0) Fatal("pipe: %s", strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  std::vector<char*> envp;
  if (environment) {
    for (size_t at = 0; at < environment->size() && (*environment)[at]; at += strlen(environment->data() + at) + 1)
      envp.push_back(const_cast<char*>(environment->data() + at));
    envp.push_back(nullptr);
  }
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid;
  int result = posix_spawn(&pid, "/bin/sh", &actions, nullptr, const_cast<char**>(argv),
                           environment ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (result != 0) Fatal("posix_spawn: %s", strerror(result));
  char buffer[64 << 10];
  for (;;) {
    int64_t got = ReadUpTo(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) break;
    output->append(buffer, static_cast<size_t>(got));
  }
  close(pipe_fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) Fatal("waitpid: %s", strerror(errno));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace ronin
