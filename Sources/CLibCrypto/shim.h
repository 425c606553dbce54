/* Swift's view of the system's libcrypto (OpenSSL): the digest interface (EVP), for the plugin
 * allow-list's SHA-256. swift-crypto's Crypto module imports Foundation on Linux, which the plugin
 * host (and libundohost.so, built on it) does without; libcrypto is plain C. */
#ifndef UNDOHOST_CLIBCRYPTO_SHIM_H
#define UNDOHOST_CLIBCRYPTO_SHIM_H

#include <openssl/evp.h>

#endif
