# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 1000,843 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test RMSE against n_train'
set xlabel 'n_train (training points)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'Each point: the cell with the lowest test_rmse over solver.lambda.' at screen 0.01, screen 0.0949 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0688 left font ',12'
set label 102 'Drawn over one another, with the same errors: gaussian · kernel_ridge precision=double (dual) and gaussian · kernel_ridge' at screen 0.01, screen 0.0427 left font ',12'
set label 103 'precision=mixed (dual).' at screen 0.01, screen 0.0166 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('800' 800, '3200' 3200)
$line0 << EOD
800 1.2106062363518517 1.2106062363518517 1.2106062363518517
3200 1.0919353160118532 1.0919353160118532 1.0919353160118532
EOD
$line1 << EOD
800 1.2271271309398264 1.2271271309398264 1.2271271309398264
3200 1.1016256559650843 1.1016256559650843 1.1016256559650843
EOD
$line2 << EOD
800 1.2106062364268653 1.2106062364268653 1.2106062364268653
3200 1.0919353158586966 1.0919353158586966 1.0919353158586966
EOD
$line3 << EOD
800 1.2102177040798567 1.2102177040798567 1.2102177040798567
3200 1.0915255380035318 1.0915255380035318 1.0915255380035318
EOD
$line4 << EOD
800 1.2259522244993242 1.2259522244993242 1.2259522244993242
3200 1.1015255531929637 1.1015255531929637 1.1015255531929637
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian · kernel_ridge precision=double (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian · falkon precision=double (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'gaussian · kernel_ridge precision=mixed (dual)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'gaussian · kernel_ridge precision=single (dual)', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'gaussian · falkon precision=mixed (dual)'
