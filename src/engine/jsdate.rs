//! JavaScript's `Date.prototype.toString()` in the harness process's time zone and ICU locale.
//!
//! The one place a skill file can observe it: a `!!timestamp` used as a mapping key becomes
//! `String(date)` (npm yaml's key stringification), e.g.
//! `Thu Dec 13 2001 19:00:00 GMT-0500 (Nordamerikanische Ostküsten-Normalzeit)`.
//!
//! V8 formats the local time and offset from ICU's default time zone, and the name in
//! parentheses with `icu::TimeZone::getDisplayName(is_dst, LONG, <ICU default locale>)`
//! (`ICUTimezoneCache::LocalTimezone`). What is reproduced here:
//!
//! * **Zone** (ICU's `uprv_tzname`): `TZ` when it looks like an Olson id (`isValidOlsonID`: no
//!   digits except up to two at the end, no `,`; `PST8PDT`-style ids allowed), minus a leading
//!   `:` and a `posix/` or `right/` prefix; otherwise the host's zone (the `/etc/localtime`
//!   link, else the system zone jiff finds: macOS, Windows; UTC when none is configured). An
//!   id without data gives offset 0 and the offset-format name (`GMT+00:00`), as ICU's unknown
//!   zone does.
//! * **Offsets** come from the IANA database (jiff: the system's zoneinfo, bundled on Windows).
//! * **Name**: the long specific name (standard or daylight, by the date's DST flag) of the
//!   zone, else of its metazone *today* (ICU looks names up at the current time), in the ICU
//!   default locale with locale fallback (ICU4X compiled CLDR data); without a name, the
//!   localized offset format of the zone's current standard offset (daylight offset when the
//!   date is in DST and the zone still observes DST), e.g. `GMT-05:00`, `UTC+03:00` (fr).
//! * **ICU default locale** (`uprv_getDefaultLocaleID`): the first of `LC_ALL`, `LC_MESSAGES`,
//!   `LANG` that is *set* (an empty value counts and means the root locale, which has no zone
//!   names); `C`/`POSIX`/none → `en_US_POSIX` (English names); the codeset and `@modifier`
//!   are dropped.

use icu_datetime::provider::time_zones::{
    MetazoneId, TimezoneNamesEssentialsV1, TimezoneNamesSpecificLongV1, TimezoneNamesStandardLongV1,
};
use icu_locale::Locale;
use icu_provider::prelude::*;
use icu_time::TimeZone as Bcp47Zone;
use icu_time::provider::TimezonePeriodsV1;
use icu_time::zone::{IanaParser, TimeZoneVariant, ZoneNameTimestamp};
use npm_yaml::js::value::{civil_from_days, days_from_civil};
use std::sync::OnceLock;

/// The process's time zone and ICU locale, as the harness would see them.
pub struct ProcessZone {
    tz: Option<jiff::tz::TimeZone>,
    bcp47: Bcp47Zone,
    locale: Option<Locale>,
    /// "now", for the name lookup (epoch seconds)
    now: i64,
}

static PROCESS: OnceLock<ProcessZone> = OnceLock::new();

/// `String(new Date(t))` in this process's zone and locale (read once from the environment).
pub fn date_to_string(t: f64) -> String {
    PROCESS.get_or_init(|| ProcessZone::from_env(&|k| std::env::var(k).ok())).date_to_string(t)
}

/// ICU's `isValidOlsonID` (putil.cpp).
fn is_valid_olson_id(id: &str) -> bool {
    let b = id.as_bytes();
    let mut i = 0;
    while i < b.len() && !b[i].is_ascii_digit() && b[i] != b',' {
        i += 1;
    }
    let max = i + 2;
    while i < b.len() && b[i].is_ascii_digit() && i < max {
        i += 1;
    }
    i == b.len() || matches!(id, "PST8PDT" | "MST7MDT" | "CST6CDT" | "EST5EDT")
}

/// The zone id ICU picks for the process (`uprv_tzname`), or `None` for the host's own.
pub fn icu_zone_id(tz_env: Option<&str>) -> Option<String> {
    let tz = tz_env?;
    if !is_valid_olson_id(tz) {
        return None;
    }
    let tz = tz.strip_prefix(':').unwrap_or(tz);
    let tz = tz.strip_prefix("posix/").or_else(|| tz.strip_prefix("right/")).unwrap_or(tz);
    Some(tz.to_string())
}

fn host_zone_id() -> Option<String> {
    #[cfg(unix)]
    if let Ok(target) = std::fs::read_link("/etc/localtime") {
        let s = target.to_string_lossy();
        if let Some(i) = s.find("zoneinfo/") {
            return Some(s[i + "zoneinfo/".len()..].to_string());
        }
    }
    // jiff's own detection (macOS, Windows, a copied /etc/localtime)
    jiff::tz::TimeZone::try_system().ok().and_then(|z| z.iana_name().map(str::to_string))
}

/// Offset 0 and no DST now and half a year from now.
fn is_utc_like(tz: &jiff::tz::TimeZone, now: i64) -> bool {
    [now, now + 182 * 86_400].iter().all(|&t| {
        jiff::Timestamp::from_second(t).is_ok_and(|ts| {
            let info = tz.to_offset_info(ts);
            info.offset().seconds() == 0 && !info.dst().is_dst()
        })
    })
}

/// ICU's default locale id for the environment; `None` is the root locale.
pub fn icu_default_locale(var: &dyn Fn(&str) -> Option<String>) -> Option<Locale> {
    let posix = var("LC_ALL").or_else(|| var("LC_MESSAGES")).or_else(|| var("LANG")).unwrap_or_else(|| "C".into());
    // ICU strips the codeset and modifier first, so `C.UTF-8` (Debian's default) is `C` too
    let base = posix.split(['.', '@']).next().unwrap_or("");
    if base == "C" || base == "POSIX" {
        return Some(Locale::try_from_str("en-US-posix").unwrap_or_else(|_| "en-US".parse().expect("en-US")));
    }
    if base.is_empty() {
        return None;
    }
    Locale::try_from_str(&base.replace('_', "-")).ok()
}

impl ProcessZone {
    pub fn from_env(var: &dyn Fn(&str) -> Option<String>) -> ProcessZone {
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        let locale = icu_default_locale(var);
        if let Some(id) = icu_zone_id(var("TZ").as_deref()).or_else(host_zone_id) {
            return ProcessZone::new(Some(&id), locale, now);
        }
        // No zone id (no `/etc/localtime` link, e.g. in many containers): ICU falls back to the
        // C library's zone, which is UTC when nothing is configured. A host zone without a
        // name keeps its offsets and gets the offset-format name.
        match jiff::tz::TimeZone::try_system().ok() {
            Some(sys) if !is_utc_like(&sys, now) => {
                ProcessZone { tz: Some(sys), bcp47: Bcp47Zone::UNKNOWN, locale, now }
            }
            _ => ProcessZone::new(Some("UTC"), locale, now),
        }
    }

    /// A zone by IANA id (`None`: unknown) and a locale (`None`: root), names looked up at `now`.
    pub fn new(id: Option<&str>, locale: Option<Locale>, now: i64) -> ProcessZone {
        let tz = id.and_then(|id| jiff::tz::TimeZone::get(id).ok());
        let bcp47 = match (id, &tz) {
            (Some(id), Some(_)) => IanaParser::new().parse(id),
            _ => Bcp47Zone::UNKNOWN,
        };
        ProcessZone { tz, bcp47, locale, now }
    }

    pub fn date_to_string(&self, t: f64) -> String {
        if !t.is_finite() || t.abs() > 8.64e15 {
            return "Invalid Date".to_string();
        }
        let ms = t as i64;
        let offset_s = self.offset_at(ms).map_or(0, |(o, _)| o);
        // V8 (`DateCache::DaylightSavingsOffsetInMs`) asks for the DST flag of dates before 1970
        // or after 2038 at the same day in an equivalent year of 2008-2037.
        let dst_ms = if (0..=2_147_483_647_000).contains(&ms) { ms } else { equivalent_time(ms) };
        let is_dst = self.is_dst_rearguard(dst_ms);
        let local = ms + offset_s * 1000;
        let days = local.div_euclid(86_400_000);
        let ms_in_day = local.rem_euclid(86_400_000);
        let (y, m, d) = civil_from_days(days);
        let wd = (days + 4).rem_euclid(7);
        const WD: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
        const MO: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        let year = if y < 0 { format!("-{:06}", -y) } else { format!("{y:04}") };
        // V8 prints the offset in whole minutes (truncated)
        let off_min = offset_s / 60;
        let sign = if off_min < 0 { '-' } else { '+' };
        format!(
            "{} {} {:02} {} {:02}:{:02}:{:02} GMT{}{:02}{:02} ({})",
            WD[wd as usize],
            MO[(m - 1) as usize],
            d,
            year,
            ms_in_day / 3_600_000,
            (ms_in_day / 60_000) % 60,
            (ms_in_day / 1000) % 60,
            sign,
            off_min.abs() / 60,
            off_min.abs() % 60,
            self.name(is_dst)
        )
    }

    /// (offset in seconds, IANA DST flag) at `ms`.
    fn offset_at(&self, ms: i64) -> Option<(i64, bool)> {
        let info = self.tz.as_ref()?.to_offset_info(jiff::Timestamp::from_millisecond(ms).ok()?);
        Some((info.offset().seconds() as i64, info.dst().is_dst()))
    }

    /// The DST flag as ICU sees it: ICU's data is the IANA "rearguard" form, where DST always
    /// adds time; the IANA main form has negative DST (Europe/Dublin: winter GMT is flagged
    /// DST, summer IST is standard), so a flag on the lower of two offsets is swapped.
    fn is_dst_rearguard(&self, ms: i64) -> bool {
        let Some((o, d)) = self.offset_at(ms) else { return false };
        const HALF_YEAR: i64 = 182 * 86_400_000;
        for other in [ms + HALF_YEAR, ms - HALF_YEAR] {
            if let Some((o2, d2)) = self.offset_at(other)
                && d2 != d
            {
                return if d { o > o2 } else { o > o2 && d2 };
            }
        }
        d
    }

    /// `TimeZone::getDisplayName(is_dst, LONG, locale)` as ICU computes it.
    pub fn name(&self, is_dst: bool) -> String {
        let now = periods().get(self.bcp47, ZoneNameTimestamp::from_epoch_seconds(self.now));
        let variant = if is_dst { TimeZoneVariant::Daylight } else { TimeZoneVariant::Standard };
        let mz = now.and_then(|(_, mz)| mz).map(|m| m.id);
        if let Some(name) = self.long_name(variant, mz) {
            return name;
        }
        let offset = match now {
            Some((o, _)) => match (is_dst, o.daylight) {
                (true, Some(dst)) => dst.to_seconds(),
                _ => o.standard.to_seconds(),
            },
            None => 0,
        };
        self.offset_name(offset)
    }

    fn request<'a>(&self, dl: &'a DataLocale) -> DataRequest<'a> {
        DataRequest { id: DataIdentifierBorrowed::for_locale(dl), ..Default::default() }
    }

    fn data_locale(&self) -> DataLocale {
        match &self.locale {
            Some(l) => DataLocale::from(l),
            None => DataLocale::default(),
        }
    }

    fn long_name(&self, variant: TimeZoneVariant, mz: Option<MetazoneId>) -> Option<String> {
        let dl = self.data_locale();
        let specific: DataResponse<TimezoneNamesSpecificLongV1> =
            icu_datetime::provider::Baked.load(self.request(&dl)).ok()?;
        let specific = specific.payload.get();
        if let Some(n) = specific.overrides.get(&(self.bcp47, variant)) {
            return Some(n.to_string());
        }
        let standard: Option<DataResponse<TimezoneNamesStandardLongV1>> =
            icu_datetime::provider::Baked.load(self.request(&dl)).ok();
        if variant == TimeZoneVariant::Standard
            && let Some(std) = &standard
            && let Some(n) = std.payload.get().overrides.get(&self.bcp47)
        {
            return Some(n.to_string());
        }
        let mz = mz?;
        if variant == TimeZoneVariant::Standard && specific.use_standard.iter().any(|m| m == mz) {
            return standard.and_then(|s| s.payload.get().defaults.get(&mz).map(str::to_string));
        }
        specific.defaults.get(&(mz, variant)).map(str::to_string)
    }

    /// ICU's localized GMT format (`GMT-05:00`; `GMT+00:00` for zero here, as V8 shows it).
    fn offset_name(&self, seconds: i32) -> String {
        let dl = self.data_locale();
        let sign = if seconds < 0 { '-' } else { '+' };
        let mins = seconds.abs() / 60;
        let sep_and_pattern: Option<DataResponse<TimezoneNamesEssentialsV1>> =
            icu_datetime::provider::Baked.load(self.request(&dl)).ok();
        match sep_and_pattern {
            Some(e) => {
                let e = e.payload.get();
                let body = format!("{sign}{:02}{}{:02}", mins / 60, e.offset_separator, mins % 60);
                e.offset_pattern.interpolate_to_string([body.as_str()])
            }
            None => format!("GMT{sign}{:02}:{:02}", mins / 60, mins % 60),
        }
    }
}

/// V8's `DateCache::EquivalentTime`: the same month, day and time of day in the year of
/// 2008-2037 that starts on the same weekday and has the same leap-ness.
fn equivalent_time(ms: i64) -> i64 {
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let leap = |y: i64| y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let jan1 = days_from_civil(year, 1, 1);
    let week_day = (jan1 + 4).rem_euclid(7);
    let recent = (if leap(year) { 1956 } else { 1967 }) + (week_day * 12) % 28;
    let eq_year = 2008 + (recent + 3 * 28 - 2008) % 28;
    (days_from_civil(eq_year, month, 1) + day - 1) * 86_400_000 + in_day
}

fn periods() -> &'static icu_time::provider::TimezonePeriods<'static> {
    static P: OnceLock<&'static icu_time::provider::TimezonePeriods<'static>> = OnceLock::new();
    P.get_or_init(|| {
        icu_time::provider::Baked
            .load(DataRequest::default())
            .ok()
            .and_then(|r: DataResponse<TimezonePeriodsV1>| r.payload.get_static())
            .expect("time zone periods are compiled in")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-12-01T00:00:00Z: names are looked up "now", as ICU does.
    const NOW: i64 = 1_764_547_200;

    fn at(zone: &str, locale: Option<&str>, t: f64) -> String {
        ProcessZone::new(Some(zone), locale.map(|l| l.parse().unwrap()), NOW).date_to_string(t)
    }

    #[test]
    fn olson_ids_as_icu_accepts_them() {
        assert_eq!(icu_zone_id(Some("America/New_York")).as_deref(), Some("America/New_York"));
        assert_eq!(icu_zone_id(Some(":posix/Europe/Berlin")).as_deref(), Some("Europe/Berlin"));
        assert_eq!(icu_zone_id(Some("Etc/GMT-11")).as_deref(), Some("Etc/GMT-11"));
        assert_eq!(icu_zone_id(Some("EST5EDT")).as_deref(), Some("EST5EDT"));
        assert_eq!(icu_zone_id(Some("CST6CDT5,J129,J131/19:30")), None);
        assert_eq!(icu_zone_id(Some("<+03>-3")), None);
        assert_eq!(icu_zone_id(None), None);
    }

    #[test]
    fn icu_default_locale_from_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        let loc = |l: Option<Locale>| l.map(|l| l.to_string());
        assert_eq!(
            loc(icu_default_locale(&env(&[("LC_ALL", "de_DE.UTF-8"), ("LANG", "fr_FR")]))).as_deref(),
            Some("de-DE")
        );
        assert_eq!(
            loc(icu_default_locale(&env(&[("LC_MESSAGES", "ja_JP"), ("LANG", "de_DE")]))).as_deref(),
            Some("ja-JP")
        );
        // set but empty counts, and is the root locale
        assert_eq!(loc(icu_default_locale(&env(&[("LC_ALL", ""), ("LANG", "de_DE")]))), None);
        assert_eq!(loc(icu_default_locale(&env(&[("LANG", "de_DE.UTF-8@euro")]))).as_deref(), Some("de-DE"));
        assert_eq!(loc(icu_default_locale(&env(&[]))).as_deref(), Some("en-US-posix"));
        assert_eq!(loc(icu_default_locale(&env(&[("LC_ALL", "C")]))).as_deref(), Some("en-US-posix"));
        assert_eq!(loc(icu_default_locale(&env(&[("LANG", "C.UTF-8")]))).as_deref(), Some("en-US-posix"));
        assert_eq!(loc(icu_default_locale(&env(&[("LC_ALL", "POSIX@euro")]))).as_deref(), Some("en-US-posix"));
    }

    // Expectations from Node (ICU 78): `TZ=… LC_ALL=… node -e 'console.log(String(new Date(t)))'`.
    #[test]
    fn date_to_string_like_v8() {
        let dec = 1_008_288_000_000.0; // 2001-12-14T00:00:00Z
        let jul = 995_068_800_000.0; // 2001-07-14T00:00:00Z
        assert_eq!(
            at("America/New_York", Some("de-DE"), dec),
            "Thu Dec 13 2001 19:00:00 GMT-0500 (Nordamerikanische Ostküsten-Normalzeit)"
        );
        assert_eq!(
            at("America/New_York", Some("en-US"), jul),
            "Fri Jul 13 2001 20:00:00 GMT-0400 (Eastern Daylight Time)"
        );
        assert_eq!(at("UTC", Some("en-US"), dec), "Fri Dec 14 2001 00:00:00 GMT+0000 (Coordinated Universal Time)");
        assert_eq!(at("UTC", None, dec), "Fri Dec 14 2001 00:00:00 GMT+0000 (GMT+00:00)");
        assert_eq!(at("Europe/Berlin", Some("ja-JP"), jul), "Sat Jul 14 2001 02:00:00 GMT+0200 (中央ヨーロッパ夏時間)");
        assert_eq!(
            at("Australia/Lord_Howe", Some("en-US"), dec),
            "Fri Dec 14 2001 11:00:00 GMT+1100 (Lord Howe Daylight Time)"
        );
        assert_eq!(at("Etc/GMT-3", Some("fr-FR"), dec), "Fri Dec 14 2001 03:00:00 GMT+0300 (UTC+03:00)");
        assert_eq!(at("Foo/Bar", Some("en-US"), dec), "Fri Dec 14 2001 00:00:00 GMT+0000 (GMT+00:00)");
        // negative DST in the IANA data: ICU calls Irish summer time daylight time
        assert_eq!(at("Europe/Dublin", Some("en-US"), jul), "Sat Jul 14 2001 01:00:00 GMT+0100 (Irish Standard Time)");
        assert_eq!(at("Europe/Dublin", Some("en-US"), dec), "Fri Dec 14 2001 00:00:00 GMT+0000 (Greenwich Mean Time)");
        // before 1970, V8 takes the DST flag from an equivalent year: summer time by name
        assert_eq!(
            at("Europe/Berlin", Some("en-US"), -2_000_000_000_000.0),
            "Thu Aug 16 1906 21:26:40 GMT+0100 (Central European Summer Time)"
        );
        assert_eq!(at("UTC", Some("en-US"), f64::NAN), "Invalid Date");
    }
}
