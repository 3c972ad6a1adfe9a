// Sockets: the calls the HTTP client, the HTTP server and the DNS resolver
// make, on both platforms. BSD sockets in socket_posix.cc, Winsock in
// socket_win.cc (started on first use). A socket is an int on both
// (Winsock's SOCKET values are small handle numbers). Failures return -1
// (or false) with errno set, Winsock's errors mapped to their POSIX names
// (EWOULDBLOCK, EINPROGRESS, ECONNREFUSED, ...), so callers test errno as on
// POSIX. The address types (sockaddr_storage, pollfd, ...) come from the
// platform's headers, the one thing here that needs the compiler's _WIN32.
#ifndef RONIN_NET_SOCKET_H_
#define RONIN_NET_SOCKET_H_

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#endif

#include <cstddef>
#include <cstdint>

namespace ronin {

// A new socket (SOCK_STREAM or SOCK_DGRAM), not inherited by commands;
// non-blocking if asked.
int OpenSocket(int family, int type, bool non_blocking);
void CloseSocket(int socket);
// Makes an accepted socket non-blocking, not inherited, and (where the
// platform needs it) unable to raise SIGPIPE.
void SetNonBlockingCloexec(int socket);
void SetSocketNoDelay(int socket);

// connect(); on a non-blocking socket -1 with EINPROGRESS while pending,
// after which SocketPendingError tells how it went (0: connected).
int ConnectSocket(int socket, const sockaddr_storage& address);
int SocketPendingError(int socket);
// Binds (with SO_REUSEADDR) and listens.
bool BindAndListen(int socket, const sockaddr_storage& address, int backlog);
// A pending connection, or -1 (errno EWOULDBLOCK when none is waiting).
int AcceptSocket(int listener);
// The port a bound socket listens on, or 0.
int LocalPort(int socket);
// No more sending (the peer reads end of file).
void ShutdownSending(int socket);

// send() that never raises SIGPIPE, and recv(): bytes moved, or -1.
int64_t SendSocket(int socket, const char* data, size_t size);
int64_t ReceiveSocket(int socket, char* data, size_t size);

// poll() over sockets (POLLIN, POLLOUT; no POLLPRI). A negative socket is
// skipped, as poll() skips a negative descriptor.
int PollSockets(pollfd* sockets, size_t count, int timeout_ms);
// The entry of PollSockets' array for `socket` (-1: none) and `events`.
pollfd PollEntry(int socket, short events);

// The length of `address` for its family (sockaddr_in or sockaddr_in6).
socklen_t AddressLength(const sockaddr_storage& address);

}  // namespace ronin

#endif  // RONIN_NET_SOCKET_H_
