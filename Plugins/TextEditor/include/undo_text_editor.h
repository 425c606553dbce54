/*
 * The sample text editor plugin (libUndoPluginTextEditor.so). It has no C API of its own: the
 * host reaches it through its one exported symbol, undo_plugin_entry (see undohost/undo_plugin.h).
 * These names are for hosts and scripts that drive it.
 */
#ifndef UNDOHOST_TEXT_EDITOR_H
#define UNDOHOST_TEXT_EDITOR_H

/** The plugin id; its actions are "text.insert", "text.delete", "text.bold", "text.italic". */
#define UNDO_TEXT_EDITOR_ID "org.undohost.text"

#endif
