#ifndef CELLAR_CMICROHTTPD_SHIM_H
#define CELLAR_CMICROHTTPD_SHIM_H

// The only C in Cellar: libmicrohttpd, plus `static inline` wrappers for the calls Swift
// cannot make itself. Swift cannot call C variadic functions, and MHD passes options,
// daemon info and connection options through varargs. Every wrapper is prefixed `cmhd_`.

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon with its options in one `MHD_OPTION_ARRAY` (terminated by MHD_OPTION_END).
static inline struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, uint16_t port,
                                                  MHD_AccessHandlerCallback handler, void *handler_cls,
                                                  struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// An option item carrying an unsigned value (timeouts, limits, pool size).
static inline struct MHD_OptionItem cmhd_option_uint(enum MHD_OPTION option, unsigned int value) {
    struct MHD_OptionItem item = { option, (intptr_t)value, NULL };
    return item;
}

/// An option item carrying a size_t value (memory limits).
static inline struct MHD_OptionItem cmhd_option_size(enum MHD_OPTION option, size_t value) {
    struct MHD_OptionItem item = { option, (intptr_t)value, NULL };
    return item;
}

/// An option item carrying a pointer (MHD_OPTION_SOCK_ADDR).
static inline struct MHD_OptionItem cmhd_option_pointer(enum MHD_OPTION option, void *pointer) {
    struct MHD_OptionItem item = { option, 0, pointer };
    return item;
}

static inline struct MHD_OptionItem cmhd_option_notify_completed(MHD_RequestCompletedCallback callback, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)callback, cls };
    return item;
}

static inline struct MHD_OptionItem cmhd_option_notify_connection(MHD_NotifyConnectionCallback callback, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)callback, cls };
    return item;
}

static inline struct MHD_OptionItem cmhd_option_uri_log(void *(*callback)(void *cls, const char *uri, struct MHD_Connection *con), void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)callback, cls };
    return item;
}

static inline struct MHD_OptionItem cmhd_option_end(void) {
    struct MHD_OptionItem item = { MHD_OPTION_END, 0, NULL };
    return item;
}

/// Receives one of libmicrohttpd's error messages, already formatted (MHD_OPTION_EXTERNAL_LOGGER passes a va_list,
/// which Swift cannot format itself).
typedef void (*cmhd_log_function)(void *cls, const char *message);

/// A log function and its context; must outlive the daemon.
struct cmhd_logger {
    cmhd_log_function function;
    void *cls;
};

static inline void cmhd_logger_trampoline(void *cls, const char *format, va_list ap) {
    struct cmhd_logger *logger = (struct cmhd_logger *)cls;
    char message[1024];
    vsnprintf(message, sizeof message, format, ap);
    logger->function(logger->cls, message);
}

/// Routes libmicrohttpd's error log (with MHD_USE_ERROR_LOG) to `logger->function`.
static inline struct MHD_OptionItem cmhd_option_external_logger(struct cmhd_logger *logger) {
    struct MHD_OptionItem item = { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&cmhd_logger_trampoline, logger };
    return item;
}

/// Connections the daemon currently holds open.
static inline unsigned int cmhd_daemon_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/// The peer's address, or NULL.
static inline const struct sockaddr *cmhd_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// The socket of a connection, or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// What the application stored in `*socket_context` from the connection-notify callback, or NULL.
static inline void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// What one pass over a request's header fields found that RFC 9112 tells a server to refuse with 400,
/// and the Content-Length value the body is framed by.
struct cmhd_head_check {
    unsigned int host_count;
    unsigned int content_length_count;
    unsigned int transfer_encoding_count;
    /// Two Content-Length fields with different values (RFC 9112 §6.3; identical ones are one value, RFC 9110 §8.6).
    bool content_length_conflict;
    /// A field name that is empty or holds a byte outside RFC 9110's `token` (a space or tab before the colon, say).
    bool invalid_field_name;
    /// The first Content-Length value (owned by libmicrohttpd, valid during the access-handler call), or NULL.
    const char *content_length;
    size_t content_length_size;
    /// The bytes of the header fields as sent, each counted as `name: value` and CRLF.
    size_t field_bytes;
    /// The number of header fields.
    unsigned int field_count;
};

/// RFC 9110 §5.6.2 `tchar`: ALPHA, DIGIT and !#$%&'*+-.^_`|~ (one bit per byte value).
static inline bool cmhd_is_token_byte(unsigned char byte) {
    static const uint32_t table[8] = { 0, 0x03ff6cfa, 0xc7fffffe, 0x57ffffff, 0, 0, 0, 0 };
    return (table[byte >> 5] >> (byte & 31)) & 1;
}

static inline enum MHD_Result cmhd_head_check_field(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                    const char *value, size_t value_size) {
    (void)kind;
    struct cmhd_head_check *check = (struct cmhd_head_check *)cls;
    check->field_bytes += key_size + value_size + 4;
    check->field_count++;
    if (key_size == 0) check->invalid_field_name = true;
    for (size_t i = 0; i < key_size; i++) {
        if (!cmhd_is_token_byte((unsigned char)key[i])) {
            check->invalid_field_name = true;
            break;
        }
    }
    if (key_size == 4 && strncasecmp(key, "host", 4) == 0) {
        check->host_count++;
    } else if (key_size == 17 && strncasecmp(key, "transfer-encoding", 17) == 0) {
        check->transfer_encoding_count++;
    } else if (key_size == 14 && strncasecmp(key, "content-length", 14) == 0) {
        if (check->content_length_count++ == 0) {
            check->content_length = value;
            check->content_length_size = value_size;
        } else if (value_size != check->content_length_size || (value_size > 0 && memcmp(value, check->content_length, value_size) != 0)) {
            check->content_length_conflict = true;
        }
    }
    return MHD_YES;
}

/// One pass over the request's header fields (no allocation): counts Host, Content-Length and Transfer-Encoding, checks the
/// names, and counts the fields and their bytes.
static inline void cmhd_check_head(struct MHD_Connection *connection, struct cmhd_head_check *check) {
    memset(check, 0, sizeof *check);
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, cmhd_head_check_field, check);
}

/// Changes the idle timeout of one connection (seconds; 0 = none).
static inline enum MHD_Result cmhd_connection_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// `MHD_SIZE_UNKNOWN` is a macro Swift does not import.
static inline uint64_t cmhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// Content-reader return values (macros, not imported as Int-typed constants).
static inline ssize_t cmhd_content_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t cmhd_content_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif
