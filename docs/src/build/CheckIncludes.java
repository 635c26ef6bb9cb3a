import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Fails the docs build when a page includes a file that does not exist or a tagged region the file
 * does not have: the pages show compiled, tested sources (getting-started/ through the symlink
 * modules/ROOT/examples/getting-started), and a renamed file or tag must not leave a hole in a
 * page. Resolves Antora's {@code example$}, {@code partial$} and {@code page$} families and paths
 * relative to the page; includes marked {@code opts=optional} and targets with attribute
 * references are left alone. Run by the docs module's build: {@code java CheckIncludes.java <module dir>}.
 */
public class CheckIncludes {

    private static final Pattern INCLUDE = Pattern.compile("^include::([^\\[]+)\\[(.*)]\\s*$");
    private static final Pattern TAGS = Pattern.compile("(?:^|,)\\s*tags?=\"?([^\",]+)\"?");

    public static void main(String[] args) throws IOException {
        Path module = Path.of(args[0]);
        List<String> problems = new ArrayList<>();
        int checked = 0;
        List<Path> pages;
        try (Stream<Path> files = Files.walk(module)) {
            pages = files.filter(file -> file.toString().endsWith(".adoc"))
                    .filter(file -> !file.startsWith(module.resolve("examples")))
                    .sorted().toList();
        }
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            for (int number = 1; number <= lines.size(); number++) {
                Matcher include = INCLUDE.matcher(lines.get(number - 1));
                if (!include.matches() || include.group(2).contains("opts=optional") || include.group(1).contains("{")) {
                    continue;
                }
                checked++;
                String where = module.relativize(page) + ":" + number + ": ";
                Path target = resolve(module, page, include.group(1));
                if (!Files.isRegularFile(target)) {
                    problems.add(where + include.group(1) + " does not exist (" + target.normalize() + ")");
                    continue;
                }
                String text = Files.readString(target);
                Matcher tags = TAGS.matcher(include.group(2));
                while (tags.find()) {
                    for (String tag : tags.group(1).split(";")) {
                        String name = tag.strip().replaceFirst("^!", "");
                        if (name.isEmpty() || name.equals("*") || name.equals("**")) {
                            continue;
                        }
                        if (!text.contains("tag::" + name + "[]") || !text.contains("end::" + name + "[]")) {
                            problems.add(where + include.group(1) + " has no region tagged '" + name + "'");
                        }
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(System.err::println);
            System.exit(1);
        }
        System.out.println("CheckIncludes: " + checked + " includes of " + pages.size() + " pages resolve");
    }

    private static Path resolve(Path module, Path page, String target) {
        int family = target.indexOf('$');
        if (family < 0) {
            return page.getParent().resolve(target);
        }
        String directory = switch (target.substring(0, family)) {
            case "example" -> "examples";
            case "partial" -> "partials";
            case "page" -> "pages";
            case "image" -> "images";
            case "attachment" -> "attachments";
            default -> throw new IllegalArgumentException("unknown resource family in include::" + target);
        };
        return module.resolve(directory).resolve(target.substring(family + 1));
    }
}
