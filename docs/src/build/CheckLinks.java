import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Fails the docs build when the rendered site has a hole: a page of {@code pages/} (or of the
 * navigation) that was not rendered, a link to a page that does not exist, an anchor the target page
 * does not have, or a directive Asciidoctor left unresolved. Asciidoctor itself only warns about
 * includes; an xref to a missing page or section renders as a dead link silently. Run by the docs
 * module's build after the render: {@code java CheckLinks.java <module dir> <site dir>}.
 */
public class CheckLinks {

    private static final Pattern HREF = Pattern.compile("href=\"([^\"]*)\"");
    private static final Pattern ID = Pattern.compile("id=\"([^\"]+)\"");
    private static final Pattern NAV_XREF = Pattern.compile("xref:([^\\[#]+\\.adoc)");

    public static void main(String[] args) throws IOException {
        Path module = Path.of(args[0]);
        Path site = Path.of(args[1]);
        List<String> problems = new ArrayList<>();
        List<Path> pages;
        try (Stream<Path> files = Files.list(module.resolve("pages"))) {
            pages = files.filter(file -> file.toString().endsWith(".adoc")).sorted().toList();
        }
        for (Path page : pages) {
            if (!Files.isRegularFile(site.resolve(html(page.getFileName().toString())))) {
                problems.add("pages/" + page.getFileName() + " was not rendered to " + site);
            }
        }
        Matcher nav = NAV_XREF.matcher(Files.readString(module.resolve("nav.adoc")));
        while (nav.find()) {
            if (!Files.isRegularFile(module.resolve("pages").resolve(nav.group(1)))) {
                problems.add("nav.adoc: xref:" + nav.group(1) + " names no page");
            }
        }
        Map<Path, Set<String>> ids = new HashMap<>();
        int links = 0;
        List<Path> rendered;
        // the pages only: includes/ holds the generated configuration tables, which the plugin renders
        // on their own too (it skips no directory but one named with a leading underscore)
        try (Stream<Path> files = Files.list(site)) {
            rendered = files.filter(file -> file.toString().endsWith(".html")).sorted().toList();
        }
        for (Path file : rendered) {
            String text = Files.readString(file);
            if (text.contains("Unresolved directive")) {
                problems.add(site.relativize(file) + ": an include was left unresolved");
            }
            Matcher href = HREF.matcher(text);
            while (href.find()) {
                String link = href.group(1);
                if (link.isEmpty() || link.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || link.startsWith("//")) {
                    continue; // another site: not this check's business
                }
                links++;
                int hash = link.indexOf('#');
                String target = hash < 0 ? link : link.substring(0, hash);
                Path linked = target.isEmpty() ? file : file.getParent().resolve(target).normalize();
                if (!Files.isRegularFile(linked)) {
                    problems.add(site.relativize(file) + ": link " + link + " leads to no page");
                } else if (hash >= 0 && !ids.computeIfAbsent(linked, CheckLinks::ids).contains(link.substring(hash + 1))) {
                    problems.add(site.relativize(file) + ": link " + link + " names no section of " + site.relativize(linked));
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(System.err::println);
            System.exit(1);
        }
        System.out.println("CheckLinks: " + rendered.size() + " rendered pages, " + links + " links, all resolve");
    }

    private static String html(String adoc) {
        return adoc.substring(0, adoc.length() - ".adoc".length()) + ".html";
    }

    private static Set<String> ids(Path file) {
        Set<String> ids = new HashSet<>();
        try {
            Matcher id = ID.matcher(Files.readString(file));
            while (id.find()) {
                ids.add(id.group(1));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return ids;
    }
}
