package io.pinion.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.restassured.RestAssured;

/**
 * The dashboard in Debian's headless Chromium, driven through Debian's chromedriver: both named by path, so
 * Selenium Manager never looks for (or downloads) a browser or a driver. Elements are found by their
 * {@code data-testid}; waits ignore elements the page replaced, as it re-renders the tab shown every 3 s.
 */
final class DashboardBrowser {

    static final Duration WAIT = Duration.ofSeconds(20);

    private static final Path CHROMIUM = Path.of(System.getProperty("pinion.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER =
            Path.of(System.getProperty("pinion.chromedriver", "/usr/bin/chromedriver"));
    private static final int WIDTH = 1280;

    private final ChromeDriver driver;

    private DashboardBrowser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Starts the browser; fails (never skips) when Chromium or its driver is missing. */
    static DashboardBrowser start() {
        List<String> missing = new ArrayList<>();
        for (Path executable : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(executable)) {
                missing.add(executable.toString());
            }
        }
        if (!missing.isEmpty()) {
            fail("the dashboard's browser tests need Debian's chromium and chromium-driver; not found: "
                    + String.join(", ", missing) + ". Install them with `apt-get install chromium chromium-driver` "
                    + "(.ci/run does), or point -Dpinion.chromium and -Dpinion.chromedriver at them.");
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                        "--window-size=" + WIDTH + ",900", "--lang=en-US");
        options.setCapability("goog:loggingPrefs", logs);
        return new DashboardBrowser(new ChromeDriver(service, options));
    }

    void quit() {
        driver.quit();
    }

    /** The page's address on the test instance. */
    static String page() {
        return "http://127.0.0.1:" + RestAssured.port + "/admin/";
    }

    /** The page with no session, and the console emptied. */
    void openWithoutSession() {
        driver.get(page());
        driver.executeScript("sessionStorage.clear()");
        driver.navigate().refresh();
        driver.manage().logs().get(LogType.BROWSER);
        visible("login-form");
    }

    /** A tab or a queue of the page, by the part after {@code #}, e.g. {@code queues/thumbnails}. */
    void go(String hash) {
        driver.get(page() + "#" + hash);
    }

    void logIn(String username, String password) {
        type("login-username", username);
        type("login-password", password);
        click("[data-testid=login-submit]");
    }

    /** Replaces what a field holds. */
    void type(String testid, String text) {
        WebElement field = driver.findElement(By.cssSelector("[data-testid=" + testid + "]"));
        field.clear();
        field.sendKeys(text);
    }

    /** Clicks an element the page may re-render under the pointer. */
    void click(String css) {
        until("a clickable " + css, browser -> {
            browser.findElement(By.cssSelector(css)).click();
            return true;
        });
    }

    /** Accepts the confirmation the page asks for. */
    void confirm() {
        until("a confirmation", ExpectedConditions.alertIsPresent()).accept();
    }

    WebElement visible(String testid) {
        return until(
                testid + " shown",
                ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=" + testid + "]")));
    }

    boolean has(String css) {
        return !driver.findElements(By.cssSelector(css)).isEmpty();
    }

    /** The first match's text, trimmed; empty when nothing matches. */
    String text(String css) {
        List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText().trim();
    }

    List<String> texts(String css) {
        return driver.findElements(By.cssSelector(css)).stream().map(element -> element.getText().trim()).toList();
    }

    List<String> attributes(String css, String attribute) {
        return driver.findElements(By.cssSelector(css)).stream()
                .map(element -> element.getDomAttribute(attribute))
                .toList();
    }

    <T> T until(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .withMessage(what + " within " + WAIT.toSeconds() + " s")
                .until(condition);
    }

    /** Nothing at SEVERE level in the console since the page was opened, but the failed loads a test expects. */
    void assertNoConsoleErrors(String... expectedFailedLoads) {
        List<String> errors = new ArrayList<>();
        for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()
                    && !expected(entry.getMessage(), expectedFailedLoads)) {
                errors.add(entry.getMessage());
            }
        }
        assertEquals(List.of(), errors, "errors in the browser's console");
    }

    private static boolean expected(String message, String[] failedLoads) {
        for (String load : failedLoads) {
            if (message.contains(load) && message.contains("Failed to load resource")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The whole page at 1280 px wide as {@code dashboard-<view>.png} in {@code target/screenshots/}, and in the
     * directory of {@code -Dpinion.screenshots.dir} when set.
     */
    void screenshot(String view) {
        long height = ((Number) driver.executeScript("return document.documentElement.scrollHeight")).longValue();
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", WIDTH, "height", height, "deviceScaleFactor", 1, "mobile", false));
        byte[] png;
        try {
            png = driver.getScreenshotAs(OutputType.BYTES);
        } finally {
            driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
        List<Path> directories = new ArrayList<>(List.of(Path.of("target/screenshots")));
        String extra = System.getProperty("pinion.screenshots.dir");
        if (extra != null && !extra.isBlank()) {
            directories.add(Path.of(extra));
        }
        try {
            for (Path directory : directories) {
                Files.createDirectories(directory);
                Files.write(directory.resolve("dashboard-" + view + ".png"), png);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
