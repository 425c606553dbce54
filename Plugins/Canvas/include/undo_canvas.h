/*
 * The sample canvas plugin (libUndoPluginCanvas.so). It has no C API of its own: the host reaches
 * it through its one exported symbol, undo_plugin_entry (see undohost/undo_plugin.h).
 */
#ifndef UNDOHOST_CANVAS_H
#define UNDOHOST_CANVAS_H

/** The plugin id; its actions are "canvas.add", "canvas.remove", "canvas.move", "canvas.recolor". */
#define UNDO_CANVAS_ID "org.undohost.canvas"

#endif
