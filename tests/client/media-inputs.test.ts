/**
 * The media-input check alone, on a small table of its own: which of the specification's input
 * forms (a public URL, a data URI, raw base64, an uploaded-file URL) a string is, and a field that
 * takes only some of them refusing the others, naming the field and the forms.
 */
import { describe, expect, it } from "vitest";
import { mediaInputCheck } from "../../runtime/client/media-inputs.ts";

const check = mediaInputCheck({
  "/v1/things/t-a": {
    inline: ["data-uri"],
    base64: ["raw-base64"],
    public: ["public-url"],
    url: ["public-url", "uploaded-file-url"],
  },
});
const send = (body: Record<string, unknown>) => () => check("/v1/things/t-a", body);

describe("the media-input check", () => {
  it("takes each form where the field accepts it", () => {
    expect(send({ inline: "data:image/png;base64,AAAA", base64: "AAAA" })).not.toThrow();
    // A URL is a public URL or an uploaded-file URL, which look alike: a field taking one of the two takes it.
    expect(send({ public: "https://files.example.com/a.png", url: "http://files.example.com/a.png" })).not.toThrow();
    expect(send({ public: "HTTPS://FILES.EXAMPLE.COM/A.PNG", inline: "DATA:image/png;base64,AAAA" })).not.toThrow();
  });

  it("knows a URL by its scheme, any scheme, as the description's MediaUrl does: the schemes a public URL may use are not shown", () => {
    expect(
      send({ public: "ftp://files.example.com/a.png", url: "s3+https.v2://bucket/a.png", inline: "data:,x" }),
    ).not.toThrow();
    // The scheme's grammar: a letter first, then letters, digits, "+", "-" or "."; no colon, no scheme.
    for (const notUrl of ["1ftp://files.example.com/a.png", "f_tp://a", "AAAA/BBBB+CCCC=="])
      expect(send({ public: notUrl })).toThrow(/^body\.public: accepts public-url; got a raw-base64$/);
  });

  it("knows a form by how the string starts", () => {
    // "data:" inside a URL's path does not make it a data URI; "https://" inside base64 text does not make it a URL.
    expect(send({ url: "https://files.example.com/data:a.png" })).not.toThrow();
    expect(send({ url: "AAAA https://files.example.com/a.png" })).toThrow(
      /^body\.url: accepts public-url, uploaded-file-url; got a raw-base64$/,
    );
  });

  it("refuses a form the field does not accept, naming the field, the forms it accepts and the form it got", () => {
    expect(send({ base64: "data:image/png;base64,AAAA" })).toThrow(
      /^body\.base64: accepts raw-base64; got a data-uri$/,
    );
    expect(send({ inline: "https://files.example.com/a.png" })).toThrow(
      /^body\.inline: accepts data-uri; got a public-url or uploaded-file-url$/,
    );
    expect(send({ public: "AAAA" })).toThrow(/^body\.public: accepts public-url; got a raw-base64$/);
  });

  it("leaves other routes and fields alone", () => {
    expect(() => check("/v1/other/o-a", { inline: "AAAA" })).not.toThrow();
    expect(send({ prompt: "AAAA" })).not.toThrow();
  });
});
