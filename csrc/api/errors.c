/* errors.c: the status names and the message table (modlights.h: ML_MESSAGES). */
#include "include/modlights.h"

#include <stddef.h>

static const struct {
    const char *name, *text;
} statuses[ML_STATUS_COUNT] = {
    [ML_OK] = {"OK", "no error"},
    [ML_EINVAL] = {"INVALID_VALUE", "a value that is not allowed"},
    [ML_ERANGE] = {"OUT_OF_RANGE", "a number outside its range"},
    [ML_ESHAPE] = {"INVALID_SHAPE", "sizes that do not match the board"},
    [ML_ETOOLARGE] = {"TOO_LARGE", "past a memory or work limit"},
    [ML_ECODE] = {"INVALID_PUZZLE_CODE", "not a valid puzzle code"},
    [ML_EIMPOSSIBLE] = {"IMPOSSIBLE", "settings no puzzle can meet"},
    [ML_EUNSOLVABLE] = {"UNSOLVABLE", "no tap counts take the state to the target"},
    [ML_ENOTCOVERED] = {"NOT_COVERED", "no engine asked for covers the board"},
    [ML_EUNAVAILABLE] = {"UNAVAILABLE", "the question has no answer for this board"},
    [ML_EINTERRUPTED] = {"INTERRUPTED", "the work was stopped"},
    [ML_ENOMEM] = {"OUT_OF_MEMORY", "an allocation failed"},
    [ML_EMISUSE] = {"MISUSE", "the API was called in a way it does not allow"},
    [ML_ECALLBACK] = {"CALLBACK_FAILED", "a registered engine's callback failed"},
    [ML_ENOTIMPL] = {"NOT_IMPLEMENTED", "not implemented in this release"},
    [ML_EINTERNAL] = {"INTERNAL", "an internal check failed (a bug)"},
};

#define ML_X_ENTRY(id, status, text) {#id, status, text},
static const struct {
    const char *name;
    int status;
    const char *text;
} messages[ML_MSG_COUNT] = {ML_MESSAGES(ML_X_ENTRY)};
#undef ML_X_ENTRY

const char *ml_status_name(int status)
{
    return status >= 0 && status < ML_STATUS_COUNT ? statuses[status].name : "UNKNOWN";
}

const char *ml_strerror(int status)
{
    return status >= 0 && status < ML_STATUS_COUNT ? statuses[status].text : "unknown status";
}

const char *ml_msg_template(int id) { return id >= 0 && id < ML_MSG_COUNT ? messages[id].text : ""; }

int ml_msg_status(int id) { return id >= 0 && id < ML_MSG_COUNT ? messages[id].status : -1; }

const char *ml_msg_name(int id) { return id >= 0 && id < ML_MSG_COUNT ? messages[id].name : ""; }
