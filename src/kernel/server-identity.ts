import { VERSION } from "../version.js";

/**
 * Who the server says it is, in initialize's `serverInfo` and on 2026-07-28's server/discover. The icons
 * are data: URIs of assets/icon.svg and assets/icon-48.png, so a client shows them without fetching
 * anything; test/kernel/server-identity.test.ts keeps them equal to the files, and `websiteUrl` to
 * package.json's `homepage`.
 */
export const SERVER_IDENTITY = {
  name: "skills-kernel",
  title: "Skills Kernel",
  version: VERSION,
  websiteUrl: "https://github.com/skills-kernel/skills-kernel",
  icons: [
    {
      src: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA2NCA2NCIgcm9sZT0iaW1nIiBhcmlhLWxhYmVsPSJTa2lsbHMgS2VybmVsIj48cmVjdCB3aWR0aD0iNjQiIGhlaWdodD0iNjQiIHJ4PSIxNCIgZmlsbD0iIzFlMjkzYiIvPjxyZWN0IHg9IjE0IiB5PSIxMiIgd2lkdGg9IjMwIiBoZWlnaHQ9IjM4IiByeD0iNCIgZmlsbD0iIzY0NzQ4YiIvPjxyZWN0IHg9IjIwIiB5PSIxNiIgd2lkdGg9IjMwIiBoZWlnaHQ9IjM4IiByeD0iNCIgZmlsbD0iI2UyZThmMCIvPjxwYXRoIGQ9Ik0yNiAyNmgxOE0yNiAzMmgxOE0yNiAzOGgxMSIgc3Ryb2tlPSIjMWUyOTNiIiBzdHJva2Utd2lkdGg9IjMiIHN0cm9rZS1saW5lY2FwPSJyb3VuZCIvPjxjaXJjbGUgY3g9IjQ2IiBjeT0iNDgiIHI9IjgiIGZpbGw9IiMxNGI4YTYiLz48L3N2Zz4K",
      mimeType: "image/svg+xml",
      sizes: ["any"],
    },
    {
      src: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAYAAABXAvmHAAAABmJLR0QA/wD/AP+gvaeTAAAEiUlEQVRoge2a228UVRzHP+fMLlt06brbVlp6BS3SS2yxsep2QUhKYkIIoVQTjX+B8cHoAyb6or5BMF5fvLwYEzUtFbwbXgi0JEoUb9vddqFKd7tgLwi0BujuzPGBQlrYdmdmp9uS+Hk8+/ud8/3O/Ob85rKCeahpCDYrXTyuhGgHVQncDWjzxTuMDoyCiAs4LCVdf4Z7f80UKG4eKN8QWq8JtRfYudgqraDgc4W2JxE5Gps9PsdARUPoMWnwKShffuWZZlJJno6H+764PnDDQHVdcLtCHCJ/ZWIXXQh2nOnv+xZmDMyUzQmgcEmlmUZcVJrREv/j+GkJoKH2cduIB1A+dLEXQFTXP7JRKfnzUkuygdKk2CgxZOdSK7GJSBtqt7y2z9+2bHOBqjYb7bvLz331jfh8foSUOa189coVkiNxTg1GUIZhaw4BVS6g2Eywx1PAA61B3G63rcVuma+ggLX31AIQi4btTrNaYnLfL1ld6pj42ZRXVOWSrrnMRno8BbdmS40tm1poqqvF673DvoyXniWdThGNxnjr3Q/ojw6YTs2pkLeGWmh7sCk38TO4XG4aG+vZv+9ViooCpvNyMnB/fW0u6RlZ5fXSFmw1HZ+TASeOfCaKA3k6A8uB296A6V0oG/FEkq7ug6QN3XLuupoqOjvsPT85ZuBAz5f0HPradv629q34Cq3fEDtmYHfHDgxDt30G7IgHBw1UVqzh+eeecWo60zhmAGBsbIJUKmU5L1Dkp8DjsbWmYwa6ew7xxtvv2cotLg7w2ccf4vGssJz7/zZ6nc6OnTy6KWS7hOwcfXD4GigpKXJyOlPkvZFtDgV5uLXFqWXz38jC4ejyNGC2kW0OBZ1aEljiRha7PMlHY0OcmBrnfCpFwO2m1VvMqgLzbzcdvYit8MnYX7yejKArdWNsdPoqX50fQW4oxLWpCdexjG/U57AkfeD7f5LsG+mfI342BjC9qw19Y/YnvrwbSCmD/clo9kAhmN7ZBq6Fy8m0AUPZe/l0Mz9OTTCeumIqVvnuxLi3fMEY0wYuXbhgNnRBTl+eshSvly38fGzawMT4KGeTcUuLZ+KWb1rZ4jNfJjdwce2Dmql96/eTP5GMx/H5/WiaC11Po5l/NwbAupVeS/Hy3PmFftYlMGplwonxUYZiA8SiYSKRQUtiAFq9RZS4zd37i4v/Ik+NLBRyToKwXRdvvvM+k1PWatotJC+U12cvJaVYcbAX0vN3dgVxUVkXfE0gXrakYhaBgJ9Q8CHK15RZyjvpd3Ok1E3Gvc1QrDjYl72RCfGKqGkINhuGOGlpdYdQZUWktjSjr6+AVSth8jLaYALXkV+QZyeyphuGbBYAlXVtPQJ2Lb5kR+kajvQ9IQEU2h4QF5dakQUuoIsXYaYPJCJHYwL1FNe21OWObkjx5PBg7xDMamRnIn3fKGVsB5xpuYvDJErsSoR7v7s+MKeBXRpPnC4srexGiQoBG7DeOBcLhRIHMETn8EDvD7N/mFfg2oZQU9owOkG0C6gCVpPfv9v8rWAYOKwM2Z0YOPZbpsD/ACJ2bjXC9K/CAAAAAElFTkSuQmCC",
      mimeType: "image/png",
      sizes: ["48x48"],
    },
  ],
};

/** Who answered, on every other 2026-07-28 result's `_meta` (the spec asks every result to say so). */
export const SERVER_STAMP = { name: SERVER_IDENTITY.name, version: SERVER_IDENTITY.version };
