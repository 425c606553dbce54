/* The bundled text editor plugin, built to count the characters its gap buffer moves
 * (TextEditorGapTests): the plugin's own source with the count switched on, and one more
 * exported function that reads it. */
#define UNDO_TEXT_EDITOR_COUNTING 1
#include "../../../Plugins/TextEditor/text_editor.c"

UNDO_PLUGIN_EXPORT uint64_t text_editor_moved_characters(void);
UNDO_PLUGIN_EXPORT uint64_t text_editor_moved_characters(void) { return text_moved_characters; }
