# kexp plot; run `gnuplot test_accuracy_vs_kernel.m.gp` here to redraw test_accuracy_vs_kernel.m.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.m.svg'
set title 'test accuracy against m: nystrom(gaussian) · linear_svc (primal)'
set xlabel 'm (kernel.m)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: one run each, so no bars.' at screen 0.01, screen 0.0218 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('100' 100, '1000' 1000)
$line0 << EOD
100 0.98 0.98 0.98
1000 0.976 0.976 0.976
EOD
$line1 << EOD
100 0.979 0.979 0.979
1000 0.981 0.981 0.981
EOD
$line2 << EOD
100 0.9788 0.9788 0.9788
1000 0.98 0.98 0.98
EOD
$line3 << EOD
100 0.9778 0.9778 0.9778
1000 0.9774 0.9774 0.9774
EOD
$line4 << EOD
100 0.97596 0.97596 0.97596
1000 0.97524 0.97524 0.97524
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'n = 1250', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'n = 5000', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'n = 12500', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'n = 50000', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'n = 125000'
