//! The facts of the header atop a run's page: the machine (host name, operating system,
//! processor architecture and logical processors), the version of the program with the commit
//! it was built from, and the date and time the report was written (UTC).

/// The header's facts, each a short phrase.
pub fn facts() -> Vec<String> {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .unwrap_or_default();
    let processors = std::thread::available_parallelism().map_or(0, |n| n.get());
    let machine = format!(
        "machine {}{} {} with {processors} logical processors",
        if host.is_empty() {
            String::new()
        } else {
            format!("{host}, ")
        },
        std::env::consts::OS,
        std::env::consts::ARCH
    );
    let version = format!(
        "experiments {} (commit {})",
        env!("CARGO_PKG_VERSION"),
        option_env!("EXPERIMENTS_COMMIT").unwrap_or("unknown")
    );
    vec![machine, version, format!("written {}", now_utc())]
}

/// The current time as `YYYY-MM-DD HH:MM UTC` (civil date from the Unix time, Howard
/// Hinnant's algorithm).
pub fn now_utc() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// The (year, month, day) of a count of days since 1970-01-01.
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil;

    #[test]
    fn days_since_the_epoch_are_civil_dates() {
        // Python: datetime.date(1970, 1, 1) + timedelta(days=n)
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_789), (2026, 12, 2));
    }
}
