// A Truco bot written to the bot protocol (docs/bot-protocol.md) in Java 17, with no libraries:
// the engine's messages arrive as JSON lines on standard input; each "act" is answered with one
// line {"id": ..., "action": ...} on standard output. Anything written to standard error is your
// log (`--logs DIR` keeps it; the server shows it to you alone).
//
// It plays every variant legally: it answers bets at random (accept_rate), calls a bet now and
// then (bet_rate), and otherwise plays a random card. Write your strategy in choose().
//
// The bundle ships this source only: `java Bot.java` compiles it in memory when the bot starts.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public class Bot {
    // This bot's parameters, from bot.toml's [params] (or --bots ./dir:key=value).
    static Map<String, Object> params = Map.of();
    static Random random = new Random(0);
    static long seat = 0;
    static int won = 0; // a bot may keep anything across the games of a match
    static int played = 0;

    static void log(String text) {
        System.err.println(text);
    }

    static double number(Object value, double otherwise) {
        return value instanceof Number n ? n.doubleValue() : otherwise;
    }

    static String pick(List<String> actions) {
        return actions.get(random.nextInt(actions.size()));
    }

    /** One of `legal`. `observation` is your seat's view: your "hand", the "trick" so far, the
     * "score", and "bet_values", what each bet or answer is worth (docs/bot-protocol.md). */
    static String choose(List<String> legal, Map<String, Object> observation) {
        Map<String, Object> values = Json.object(observation.get("bet_values"));
        if (legal.contains("accept") && legal.contains("refuse")) {
            // a bet to answer, or a hand of eleven to play
            return random.nextDouble() < number(params.get("accept_rate"), 0.5) ? "accept" : "refuse";
        }
        List<String> bets = new ArrayList<>();
        for (String action : legal) {
            if (Json.object(values.get(action)).containsKey("refused")) bets.add(action);
        }
        if (!bets.isEmpty() && random.nextDouble() < number(params.get("bet_rate"), 0.1)) return pick(bets);
        List<String> plays = new ArrayList<>();
        for (String action : legal) if (action.startsWith("play ")) plays.add(action);
        if (!plays.isEmpty()) return pick(plays);
        // Anything else the variant asks (a flor to declare, a pair to show, lots to keep or burn).
        List<String> others = new ArrayList<>();
        for (String action : legal) if (!bets.contains(action) && !action.equals("fold")) others.add(action);
        return pick(others.isEmpty() ? legal : others);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Object> message = Json.object(Json.parse(line));
            Object type = message.get("type");
            if ("match".equals(type)) {
                params = Json.object(message.get("params"));
                log("match: " + message.get("variant") + ", " + message.get("players")
                        + " players, params " + params);
            } else if ("game".equals(type)) {
                // Your own seed: the same match plays the same way again.
                random = new Random(((Number) message.get("seed")).longValue());
                seat = ((Number) message.get("seat")).longValue();
                long game = ((Number) message.get("game")).longValue() + 1;
                log("game " + game + ": seat " + seat + " (won " + won + " of " + played + " so far)");
            } else if ("act".equals(type)) {
                List<String> legal = new ArrayList<>();
                for (Object action : (List<?>) message.get("legal")) legal.add((String) action);
                String action = choose(legal, Json.object(message.get("observation")));
                System.out.println("{\"id\":" + message.get("id") + ",\"action\":" + Json.quote(action) + "}");
                System.out.flush(); // an answer left in a buffer is a timeout
            } else if ("game_end".equals(type)) {
                // Notices reach the bot with its next message: what it logs now shows in the
                // log of the next game.
                Object winner = Json.object(message.get("result")).get("winner");
                played += 1;
                if (winner instanceof Number n && n.longValue() == seat % 2) won += 1;
            } else if ("match_end".equals(type)) {
                break;
            }
            // hand_end, and any message type a later version adds: nothing to answer.
        }
    }

    /** Just enough JSON for the protocol: objects, arrays, strings, integers (as Long), other
     * numbers (as Double), true, false and null. */
    static final class Json {
        private final String text;
        private int at;

        private Json(String text) {
            this.text = text;
        }

        static Object parse(String text) {
            Json json = new Json(text);
            Object value = json.value();
            json.space();
            if (json.at != text.length()) throw new IllegalArgumentException("trailing characters");
            return value;
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(Object value) {
            return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        }

        static String quote(String value) {
            StringBuilder out = new StringBuilder("\"");
            for (char c : value.toCharArray()) {
                if (c == '"' || c == '\\') out.append('\\').append(c);
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            return out.append('"').toString();
        }

        private void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        }

        private Object value() {
            space();
            char c = text.charAt(at);
            if (c == '{') return objectValue();
            if (c == '[') return arrayValue();
            if (c == '"') return stringValue();
            if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
            if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
            if (text.startsWith("null", at)) { at += 4; return null; }
            return numberValue();
        }

        private Map<String, Object> objectValue() {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            space();
            if (text.charAt(at) == '}') { at++; return map; }
            while (true) {
                space();
                String key = stringValue();
                space();
                at++; // ':'
                map.put(key, value());
                space();
                if (text.charAt(at++) == '}') return map;
            }
        }

        private List<Object> arrayValue() {
            List<Object> list = new ArrayList<>();
            at++;
            space();
            if (text.charAt(at) == ']') { at++; return list; }
            while (true) {
                list.add(value());
                space();
                if (text.charAt(at++) == ']') return list;
            }
        }

        private String stringValue() {
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

        private Object numberValue() {
            int start = at;
            while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
            String number = text.substring(start, at);
            if (number.isEmpty()) throw new IllegalArgumentException("not JSON at " + start);
            if (number.contains(".") || number.contains("e") || number.contains("E")) {
                return Double.parseDouble(number);
            }
            return Long.parseLong(number);
        }
    }
}
