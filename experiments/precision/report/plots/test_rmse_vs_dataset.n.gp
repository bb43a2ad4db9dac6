# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 1000,767 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test RMSE against n_train: gaussian'
set xlabel 'n_train (training points)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the lowest test_rmse over solver.lambda.' at screen 0.01, screen 0.0756 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0469 left font ',12'
set label 102 'Drawn over one another, with the same errors: kernel_ridge precision=double (dual) and kernel_ridge precision=mixed (dual).' at screen 0.01, screen 0.0183 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('800' 800, '3200' 3200)
$line0 << EOD
800 1.5230690317308015 1.5230690317308015 1.5230690317308015
3200 1.0938741196397006 1.0938741196397006 1.0938741196397006
EOD
$line1 << EOD
800 1.5073768449225 1.5073768449225 1.5073768449225
3200 1.1154729036204463 1.1154729036204463 1.1154729036204463
EOD
$line2 << EOD
800 1.5230690318616715 1.5230690318616715 1.5230690318616715
3200 1.0938741196192947 1.0938741196192947 1.0938741196192947
EOD
$line3 << EOD
800 1.523161137666884 1.523161137666884 1.523161137666884
3200 1.0942340585959143 1.0942340585959143 1.0942340585959143
EOD
$line4 << EOD
800 1.5071147351359249 1.5071147351359249 1.5071147351359249
3200 1.1153818818828505 1.1153818818828505 1.1153818818828505
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'kernel_ridge precision=double (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'falkon precision=double (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'kernel_ridge precision=mixed (dual)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'kernel_ridge precision=single (dual)', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'falkon precision=mixed (dual)'
