import { QRCodeSVG } from 'qrcode.react';

/** Loaded only on the setup page, so the sign-in page does not carry the QR code library. */
export default function QrCode({ value, label }: { value: string; label: string }) {
  return <QRCodeSVG value={value} size={192} level="M" marginSize={2} role="img" aria-label={label} title={label} />;
}
