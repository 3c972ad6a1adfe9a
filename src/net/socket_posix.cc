// socket.h on POSIX: the system calls, with SIGPIPE kept away.
#include "net/socket.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <unistd.h>

namespace ronin {

int OpenSocket(int family, int type, bool non_blocking) {
  return socket(family, type | SOCK_CLOEXEC | (non_blocking ? SOCK_NONBLOCK : 0), 0);
}

void CloseSocket(int socket) { close(socket); }

void SetNonBlockingCloexec(int socket) {
  int flags = fcntl(socket, F_GETFL);
  if (flags >= 0) fcntl(socket, F_SETFL, flags | O_NONBLOCK);
  fcntl(socket, F_SETFD, FD_CLOEXEC);
#ifdef SO_NOSIGPIPE
  int one = 1;
  setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof(one));
#endif
}

void SetSocketNoDelay(int socket) {
  int one = 1;
  setsockopt(socket, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int ConnectSocket(int socket, const sockaddr_storage& address) {
  return connect(socket, reinterpret_cast<const sockaddr*>(&address), AddressLength(address));
}

int SocketPendingError(int socket) {
  int error = 0;
  socklen_t size = sizeof error;
  if (getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &size) < 0) return errno;
  return error;
}

bool BindAndListen(int socket, const sockaddr_storage& address, int backlog) {
  int one = 1;
  setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  return bind(socket, reinterpret_cast<const sockaddr*>(&address), AddressLength(address)) == 0 &&
         listen(socket, backlog) == 0;
}

int AcceptSocket(int listener) {
  int socket = accept(listener, nullptr, nullptr);
  if (socket >= 0) SetNonBlockingCloexec(socket);
  return socket;
}

int LocalPort(int socket) {
  sockaddr_storage bound;
  socklen_t length = sizeof bound;
  if (getsockname(socket, reinterpret_cast<sockaddr*>(&bound), &length) != 0) return 0;
  return bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                     : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

void ShutdownSending(int socket) { shutdown(socket, SHUT_WR); }

int64_t SendSocket(int socket, const char* data, size_t size) {
#ifdef MSG_NOSIGNAL
  return send(socket, data, size, MSG_NOSIGNAL);
#else
  return send(socket, data, size, 0);  // SO_NOSIGPIPE is set on the socket instead
#endif
}

int64_t ReceiveSocket(int socket, char* data, size_t size) { return recv(socket, data, size, 0); }

int PollSockets(pollfd* sockets, size_t count, int timeout_ms) { return poll(sockets, count, timeout_ms); }

pollfd PollEntry(int socket, short events) { return pollfd{socket, events, 0}; }

socklen_t AddressLength(const sockaddr_storage& address) {
  return address.ss_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
}

}  // namespace ronin
