/* For an isolated plugin's runner (Isolation/IsolatedPluginServer.swift): a thread that ends
 * the process when the host's end of the socket closes, even while the plugin is stuck in a
 * call (the host killed, say), so a runner never outlives its host. prctl(PR_SET_PDEATHSIG)
 * would not do: it follows the thread that started the runner, not the host process. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "undo_host_support.h"

static void *watch(void *argument) {
    struct pollfd entry;
    entry.fd = (int)(intptr_t)argument;
    entry.events = POLLRDHUP;
    entry.revents = 0;
    for (;;) {
        if (poll(&entry, 1, -1) > 0 && (entry.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0) _exit(0);
    }
    return NULL;
}

int undo__exit_when_closed(int socket) {
    pthread_t thread;
    pthread_attr_t attributes;
    int result;
    if (pthread_attr_init(&attributes) != 0) return -1;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    result = pthread_create(&thread, &attributes, watch, (void *)(intptr_t)socket);
    pthread_attr_destroy(&attributes);
    return result == 0 ? 0 : -1;
}
