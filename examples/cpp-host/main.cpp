// A C++ program using the UndoHost C API through a small RAII wrapper: the header is plain C
// with extern "C", so it needs nothing special.
//
// Build: c++ -std=c++17 -o cpp-host examples/cpp-host/main.cpp $(pkg-config --cflags --libs undohost)
#include <undohost/undo_host.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Owns one history; turns error codes into exceptions with the library's message.
class History {
public:
    History() {
        if (undo_history_create(nullptr, &handle_) != UNDO_OK) {
            throw std::runtime_error(undo_history_last_error(nullptr));
        }
    }
    ~History() { undo_history_destroy(handle_); }
    History(const History &) = delete;
    History &operator=(const History &) = delete;

    void check(int32_t code) const {
        if (code < 0) throw std::runtime_error(std::string(undo_error_name(code)) + ": " + undo_history_last_error(handle_));
    }

    void perform(const char *action, const char *context, const std::vector<undo_value> &args) {
        check(undo_history_perform(handle_, action, context, args.data(), static_cast<uint32_t>(args.size())));
    }

    // Reads a string the library writes into caller buffers, growing the buffer when needed.
    template <typename Write> std::string text(Write write) const {
        std::string buffer(16, '\0');
        int32_t length = write(&buffer[0], static_cast<uint32_t>(buffer.size()));
        check(length);
        if (static_cast<size_t>(length) >= buffer.size()) {
            buffer.assign(static_cast<size_t>(length) + 1, '\0');
            check(write(&buffer[0], static_cast<uint32_t>(buffer.size())));
        }
        buffer.resize(static_cast<size_t>(length));
        return buffer;
    }

    std::string undoTitle() const {
        return text([this](char *b, uint32_t c) { return undo_history_undo_title(handle_, b, c); });
    }

    undo_history *get() const { return handle_; }

private:
    undo_history *handle_ = nullptr;
};

}  // namespace

int main() {
    try {
        History history;
        uint32_t loaded = 0;
        history.check(undo_history_load_bundled(history.get(), &loaded));
        history.perform("notes.write", "groceries", {undo_string("Milk"), undo_i32(2)});
        history.perform("notes.write", "groceries", {undo_string("Bread"), undo_i32(1)});
        std::printf("%s\n", history.undoTitle().c_str());
        std::string notes = history.text([&](char *b, uint32_t c) {
            return undo_history_describe(history.get(), "org.undohost.notes", "groceries", b, c);
        });
        std::printf("%s\n", notes.c_str());
        history.check(undo_history_undo(history.get(), 2, nullptr));
        std::printf("after undo: \"%s\", %s\n", history.undoTitle().c_str(),
                    undo_history_is_dirty(history.get(), "groceries") ? "dirty" : "clean");
        try {
            history.perform("notes.erase", "groceries", {undo_u32(7)});
        } catch (const std::exception &error) {
            std::printf("refused: %s\n", error.what());
        }
    } catch (const std::exception &error) {
        std::fprintf(stderr, "error: %s\n", error.what());
        return 1;
    }
    return 0;
}
