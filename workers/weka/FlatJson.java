// A JSON object of string values (HELLO's options of the Weka worker), read and written with
// the standard library alone. Licence: GPL-2.0-or-later, as the rest of this folder.

import java.util.HashMap;
import java.util.Map;

final class FlatJson {
    private final String text;
    private int at;

    private FlatJson(String text) {
        this.text = text;
    }

    /** The object's keys and string values; anything else is refused with where it stands. */
    static Map<String, String> parse(String text) {
        FlatJson reader = new FlatJson(text);
        Map<String, String> object = new HashMap<>();
        reader.expect('{');
        if (reader.peek() == '}') return object;
        while (true) {
            String key = reader.string();
            reader.expect(':');
            object.put(key, reader.string());
            char next = reader.next();
            if (next == '}') return object;
            if (next != ',') throw reader.error("',' or '}'");
        }
    }

    /** A string as a JSON string literal. */
    static String quote(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    private char peek() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        if (at >= text.length()) throw error("more");
        return text.charAt(at);
    }

    private char next() {
        char c = peek();
        at++;
        return c;
    }

    private void expect(char wanted) {
        if (next() != wanted) throw error("'" + wanted + "'");
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') return out.toString();
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = text.charAt(at++);
            switch (escaped) {
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u': out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                default: out.append(escaped);
            }
        }
        throw error("the end of a string");
    }

    private IllegalArgumentException error(String wanted) {
        return new IllegalArgumentException("the Weka worker's options: expected " + wanted + " at character " + at + " of " + text);
    }
}
