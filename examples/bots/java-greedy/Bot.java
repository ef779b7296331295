// A Truco bot in Java 17 written to the bot protocol (docs/bot-protocol.md), with no libraries:
// JSON lines in on standard input, one {"action": ...} line out per "act" message. It holds a
// small JSON reader of its own (Json, below), so that the bundle is this one file.
//
// Strategy: lead with the strongest card, follow with the weakest card that beats the table
// (else the weakest card), accept a truco when holding a manilha, never raise. Card strength is
// Truco Paulista's: ranks 4 5 6 7 Q J K A 2 3; the rank after the vira's is the manilha
// (clubs > hearts > spades > diamonds).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class Bot {
    static final String RANKS = "4567QJKA23";
    static final String MANILHA_SUITS = "dshc"; // weakest to strongest

    static int strength(String card, String vira) {
        char rank = card.charAt(0);
        char suit = card.charAt(card.length() - 1);
        if (card.length() == 2 && vira != null && vira.length() == 2
                && RANKS.indexOf(rank) >= 0 && RANKS.indexOf(vira.charAt(0)) >= 0) {
            char manilha = RANKS.charAt((RANKS.indexOf(vira.charAt(0)) + 1) % RANKS.length());
            if (rank == manilha) return 100 + MANILHA_SUITS.indexOf(suit);
        }
        return Math.max(card.length() == 2 ? RANKS.indexOf(rank) : 0, 0);
    }

    /** The cards played in the current trick (entries are [seat, card] or a card). */
    static List<String> cardsOnTable(Object trick) {
        List<String> found = new ArrayList<>();
        if (!(trick instanceof List<?> entries)) return found;
        for (Object entry : entries) {
            if (entry instanceof String s) found.add(s);
            else if (entry instanceof List<?> parts) {
                for (Object x : parts) if (x instanceof String s && s.length() >= 2) found.add(s);
            } else if (entry instanceof Map<?, ?> m && m.get("card") instanceof String s) {
                found.add(s);
            }
        }
        return found;
    }

    static String decide(List<String> legal, Map<?, ?> observation) {
        String vira = observation.get("vira") instanceof String s ? s : "";
        if (legal.contains("accept")) {
            boolean manilha = false;
            if (observation.get("hand") instanceof List<?> hand) {
                for (Object c : hand) if (c instanceof String s && strength(s, vira) >= 100) manilha = true;
            }
            return manilha || !legal.contains("refuse") ? "accept" : "refuse";
        }
        List<String> plays = new ArrayList<>();
        for (String a : legal) if (a.startsWith("play ")) plays.add(a);
        if (plays.isEmpty()) return legal.get(0);
        plays.sort((a, b) -> strength(a.substring(5), vira) - strength(b.substring(5), vira));
        List<String> table = cardsOnTable(observation.get("trick"));
        if (table.isEmpty()) return plays.get(plays.size() - 1);
        int best = 0;
        for (String c : table) best = Math.max(best, strength(c, vira));
        for (String a : plays) if (strength(a.substring(5), vira) > best) return a;
        return plays.get(0);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            Map<?, ?> message = (Map<?, ?>) new Json(line).value();
            Object type = message.get("type");
            if ("act".equals(type)) {
                List<String> legal = new ArrayList<>();
                for (Object a : (List<?>) message.get("legal")) legal.add((String) a);
                Map<?, ?> observation = message.get("observation") instanceof Map<?, ?> m ? m : Map.of();
                String action = decide(legal, observation);
                System.out.println("{\"id\": " + Json.write(message.get("id")) + ", \"action\": "
                        + Json.write(action) + "}");
                System.out.flush();
            } else if ("match_end".equals(type)) {
                break;
            }
        }
    }

    /** Just enough JSON: objects, arrays, strings, numbers, true, false, null. */
    static final class Json {
        private final String text;
        private int at;

        Json(String text) { this.text = text; }

        Object value() {
            skip();
            char c = text.charAt(at);
            if (c == '{') return object();
            if (c == '[') return array();
            if (c == '"') return string();
            if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
            if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
            if (text.startsWith("null", at)) { at += 4; return null; }
            int start = at;
            while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
            return Double.parseDouble(text.substring(start, at));
        }

        private Map<String, Object> object() {
            Map<String, Object> out = new LinkedHashMap<>();
            at++;
            skip();
            if (text.charAt(at) == '}') { at++; return out; }
            while (true) {
                skip();
                String key = string();
                skip();
                at++; // the colon
                out.put(key, value());
                skip();
                if (text.charAt(at++) == '}') return out;
            }
        }

        private List<Object> array() {
            List<Object> out = new ArrayList<>();
            at++;
            skip();
            if (text.charAt(at) == ']') { at++; return out; }
            while (true) {
                out.add(value());
                skip();
                if (text.charAt(at++) == ']') return out;
            }
        }

        private String string() {
            StringBuilder out = new StringBuilder();
            at++; // the opening quote
            while (true) {
                char c = text.charAt(at++);
                if (c == '"') return out.toString();
                if (c != '\\') { out.append(c); continue; }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> { out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; }
                    default -> out.append(e);
                }
            }
        }

        private void skip() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        }

        static String write(Object value) {
            if (value == null) return "null";
            if (value instanceof Double d && d == Math.rint(d)) return Long.toString(d.longValue());
            if (value instanceof Number n) return n.toString();
            String s = value.toString();
            StringBuilder out = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') out.append('\\').append(c);
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            return out.append('"').toString();
        }
    }
}
