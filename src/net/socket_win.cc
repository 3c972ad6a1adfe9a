// socket.h on Windows: Winsock 2, started on first use, its errors mapped
// to errno values. Sockets are not inherited by commands (Winsock makes
// them inheritable by default), and a send never raises a signal there.
#include "net/socket.h"

#include <errno.h>

#include <mutex>
#include <vector>

namespace ronin {

namespace {

void StartWinsock() {
  static std::once_flag started;
  std::call_once(started, [] {
    WSADATA data;
    WSAStartup(MAKEWORD(2, 2), &data);
  });
}

int ErrnoFromWinsock(int error) {
  switch (error) {
    case WSAEWOULDBLOCK: return EWOULDBLOCK;
    case WSAEINPROGRESS: return EINPROGRESS;
    case WSAEINTR: return EINTR;
    case WSAECONNREFUSED: return ECONNREFUSED;
    case WSAECONNRESET: return ECONNRESET;
    case WSAECONNABORTED: return ECONNABORTED;
    case WSAETIMEDOUT: return ETIMEDOUT;
    case WSAENETUNREACH: return ENETUNREACH;
    case WSAEHOSTUNREACH: return EHOSTUNREACH;
    case WSAEADDRINUSE: return EADDRINUSE;
    case WSAEADDRNOTAVAIL: return EADDRNOTAVAIL;
    case WSAEAFNOSUPPORT: return EAFNOSUPPORT;
    case WSAEMFILE: return EMFILE;
    case WSAENOBUFS: return ENOBUFS;
    case WSAENOTCONN: return ENOTCONN;
    case WSAENOTSOCK: return ENOTSOCK;
    case WSAEACCES: return EACCES;
    case WSAEINVAL: return EINVAL;
    case WSAESHUTDOWN: return EPIPE;
    default: return EIO;
  }
}

// errno from the last Winsock error; returns -1 for `return Failed();`.
int Failed() {
  errno = ErrnoFromWinsock(WSAGetLastError());
  return -1;
}

SOCKET Native(int socket) { return static_cast<SOCKET>(static_cast<intptr_t>(socket)); }

void SetNonBlocking(int socket) {
  u_long on = 1;
  ioctlsocket(Native(socket), FIONBIO, &on);
}

}  // namespace

int OpenSocket(int family, int type, bool non_blocking) {
  StartWinsock();
  SOCKET native = WSASocketW(family, type, 0, nullptr, 0, WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
  if (native == INVALID_SOCKET) return Failed();
  int socket = static_cast<int>(native);
  if (non_blocking) SetNonBlocking(socket);
  return socket;
}

void CloseSocket(int socket) { closesocket(Native(socket)); }

void SetNonBlockingCloexec(int socket) {
  SetNonBlocking(socket);
  SetHandleInformation(reinterpret_cast<HANDLE>(Native(socket)), HANDLE_FLAG_INHERIT, 0);
}

void SetSocketNoDelay(int socket) {
  BOOL one = TRUE;
  setsockopt(Native(socket), IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&one), sizeof one);
}

int ConnectSocket(int socket, const sockaddr_storage& address) {
  if (connect(Native(socket), reinterpret_cast<const sockaddr*>(&address), AddressLength(address)) == 0) return 0;
  int error = WSAGetLastError();
  // A non-blocking connect under way says "would block" on Windows.
  errno = error == WSAEWOULDBLOCK ? EINPROGRESS : ErrnoFromWinsock(error);
  return -1;
}

int SocketPendingError(int socket) {
  int error = 0;
  int size = sizeof error;
  if (getsockopt(Native(socket), SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&error), &size) != 0)
    return ErrnoFromWinsock(WSAGetLastError());
  return error == 0 ? 0 : ErrnoFromWinsock(error);
}

bool BindAndListen(int socket, const sockaddr_storage& address, int backlog) {
  // SO_REUSEADDR means something else on Windows (taking over a port in
  // use): not set.
  if (bind(Native(socket), reinterpret_cast<const sockaddr*>(&address), AddressLength(address)) != 0 ||
      listen(Native(socket), backlog) != 0)
    return Failed(), false;
  return true;
}

int AcceptSocket(int listener) {
  SOCKET native = accept(Native(listener), nullptr, nullptr);
  if (native == INVALID_SOCKET) return Failed();
  int socket = static_cast<int>(native);
  SetNonBlockingCloexec(socket);
  return socket;
}

int LocalPort(int socket) {
  sockaddr_storage bound;
  int length = sizeof bound;
  if (getsockname(Native(socket), reinterpret_cast<sockaddr*>(&bound), &length) != 0) return 0;
  return bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                     : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

void ShutdownSending(int socket) { shutdown(Native(socket), SD_SEND); }

int64_t SendSocket(int socket, const char* data, size_t size) {
  int chunk = size > (1u << 30) ? (1 << 30) : static_cast<int>(size);
  int sent = send(Native(socket), data, chunk, 0);
  return sent == SOCKET_ERROR ? Failed() : sent;
}

int64_t ReceiveSocket(int socket, char* data, size_t size) {
  int chunk = size > (1u << 30) ? (1 << 30) : static_cast<int>(size);
  int got = recv(Native(socket), data, chunk, 0);
  return got == SOCKET_ERROR ? Failed() : got;
}

int PollSockets(pollfd* sockets, size_t count, int timeout_ms) {
  // WSAPoll refuses an invalid socket where poll() skips it: only the
  // valid ones are polled, and with none, the timeout is slept.
  std::vector<pollfd> valid;
  for (size_t i = 0; i < count; ++i) {
    sockets[i].revents = 0;
    if (sockets[i].fd != INVALID_SOCKET) valid.push_back(sockets[i]);
  }
  if (valid.empty()) {
    Sleep(timeout_ms < 0 ? INFINITE : static_cast<DWORD>(timeout_ms));
    return 0;
  }
  int ready = WSAPoll(valid.data(), static_cast<ULONG>(valid.size()), timeout_ms);
  if (ready == SOCKET_ERROR) return Failed();
  for (size_t i = 0, at = 0; i < count; ++i)
    if (sockets[i].fd != INVALID_SOCKET) sockets[i].revents = valid[at++].revents;
  return ready;
}

pollfd PollEntry(int socket, short events) {
  return pollfd{socket < 0 ? INVALID_SOCKET : Native(socket), events, 0};
}

socklen_t AddressLength(const sockaddr_storage& address) {
  return address.ss_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
}

}  // namespace ronin
