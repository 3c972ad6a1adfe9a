// background_thread.h on Windows: no signal masks to set. A console's
// Ctrl-C reaches ninja.exe through its control handler, on a thread the
// system starts for it, whatever the other threads do.
#include "base/background_thread.h"

namespace ronin {

struct AsyncSignalsBlocked::PreviousMask {};

AsyncSignalsBlocked::AsyncSignalsBlocked() = default;
AsyncSignalsBlocked::~AsyncSignalsBlocked() = default;

}  // namespace ronin
